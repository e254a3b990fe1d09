/**
 * pi-permission-hub: the composition root. The factory only registers handlers (pi runs it for every
 * runtime, including ones that never start a session); the gate and its dependencies load at
 * `session_start`, and every handler fails closed if they could not. When pi runs more than one copy of the
 * extension, only the copy that claimed the session gates it; the others pass, unless no copy gates it any more.
 */
import { createRequire } from "node:module";
import {
	createBashToolDefinition,
	createEditToolDefinition,
	createLocalBashOperations,
	createReadToolDefinition,
	createWriteToolDefinition,
	detectSupportedImageMimeTypeFromFile,
	type ExtensionAPI,
	type ExtensionContext,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { Key, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui";
import { listenForLinkRegistrations } from "./authority/authorizer-link.ts";
import type { TuiKit } from "./authority/tui-dialog.ts";
import type { FileToolKit } from "./gate/contained-file-tools.ts";
import type { BashKit } from "./gate/sandboxed-bash-tool.ts";
import type { SessionGate, startSessionGate } from "./gate/session-gate.ts";
import { claimSession, gatedByAnother, releaseSession } from "./gate/session-owners.ts";
import { registerPermissionModeControls } from "./slash-command/permission-mode-controls.ts";
import { permissionsViewFor, registerPermissionsCommand } from "./slash-command/permissions-command.ts";
import { errorMessage } from "./vocabulary/error-message.ts";

/** This copy either gates the session, or leaves it to the copy that claimed it first. */
type Role =
	| { readonly kind: "gate"; readonly sessionId: string; readonly gate: Promise<SessionGate> }
	| { readonly kind: "passive"; readonly sessionId: string };

export default function piPermissionHub(pi: ExtensionAPI): void {
	const self = {
		alive: (): boolean => {
			try {
				pi.getActiveTools();
				return true;
			} catch {
				return false;
			}
		},
	};
	let role: Role | null = null;
	listenForLinkRegistrations(pi.events);

	const start = (ctx: ExtensionContext, reason: string): Role => {
		const sessionId = ctx.sessionManager.getSessionId();
		if (!claimSession(sessionId, self)) {
			role = { kind: "passive", sessionId };
			return role;
		}
		const gate = loadGateModule().then((module) =>
			module.startSessionGate(pi, ctx, reason, process.env, tuiKit, bashKit, fileKit),
		);
		// A failure is reported by every handler that awaits it; this only keeps it from being unhandled.
		gate.catch(() => undefined);
		role = { kind: "gate", sessionId, gate };
		return role;
	};
	const current = (ctx: ExtensionContext): Role => role ?? start(ctx, "startup");

	/**
	 * The gate deciding this call, or null when another live copy decides it. When the copy that gated the
	 * session is gone, this copy takes over (fail closed: it never lets a call through ungated).
	 */
	const gateFor = async (ctx: ExtensionContext): Promise<SessionGate | null> => {
		let now = current(ctx);
		if (now.kind === "passive" && !gatedByAnother(now.sessionId, self)) now = start(ctx, "startup");
		if (now.kind === "gate") return now.gate;
		return gatedByAnother(now.sessionId, self)
			? null
			: Promise.reject(new Error("no copy of the gate owns this session"));
	};

	registerPermissionsCommand(pi, async (ctx) => {
		await gateFor(ctx).catch(() => null);
		return permissionsViewFor(ctx.sessionManager.getSessionId());
	});

	pi.on("session_start", async (event, ctx) => {
		const now = start(ctx, event.reason);
		if (now.kind === "gate") await now.gate.catch(() => undefined);
	});

	pi.on("tool_call", async (event, ctx) => {
		try {
			return await (await gateFor(ctx))?.onToolCall(event, ctx);
		} catch (error) {
			return { block: true, reason: unavailableGate(event.toolName, error) };
		}
	});

	pi.on("user_bash", async (event, ctx) => {
		try {
			return await (await gateFor(ctx))?.onUserBash(event, ctx);
		} catch (error) {
			const output = `${unavailableGate("bash", error)}\n`;
			return { result: { output, exitCode: 1, cancelled: false, truncated: false } };
		}
	});

	pi.on("before_agent_start", async (event, ctx) => {
		return (await gateFor(ctx).catch(() => null))?.onBeforeAgentStart(event);
	});

	registerPermissionModeControls(pi, (ctx) => gateFor(ctx));

	pi.on("session_shutdown", async () => {
		const closing = role;
		role = null;
		if (closing?.kind !== "gate") return;
		releaseSession(closing.sessionId, self);
		await (await closing.gate.catch(() => null))?.shutdown();
	});
}

function unavailableGate(tool: string, error: unknown): string {
	const message = errorMessage(error);
	return `Blocked by pi-permission-hub: the permission gate could not start, so this ${tool} call was blocked (fail closed): ${message}. Do not retry; tell the user.`;
}

type GateModule = { readonly startSessionGate: typeof startSessionGate };

/**
 * pi-tui as pi provides it, for the TUI dialog. It must be imported here, statically: pi resolves a static import
 * of its own packages in the entry it transforms (to the copy it runs; the built entry sits in a `commonjs` scope
 * so that pi transforms it rather than importing it natively), while a dynamic `import()` or any import from the
 * natively loaded gate resolves through this package's `node_modules`, which an installed copy does not have
 * (pi and npm install extensions without their peers; adr/0012).
 */
const tuiKit: TuiKit = { Key, matchesKey, truncateToWidth, visibleWidth, wrapTextWithAnsi };

/**
 * pi's bash tool, local shell and settings, for the sandboxed bash (adr/0017): imported here for the same
 * reason, and because pi hands its entry the copy it already runs — the gate importing pi's package natively
 * would load a second, unbundled pi (about 1 s of CPU and 65 MiB per pi process, adr/0028).
 */
const bashKit: BashKit = { createBashToolDefinition, createLocalBashOperations, SettingsManager };

/** pi's read, write and edit tools, for the gate's contained ones (adr/0014): imported here for the same reasons. */
const fileKit: FileToolKit = {
	createReadToolDefinition,
	createWriteToolDefinition,
	createEditToolDefinition,
	detectSupportedImageMimeTypeFromFile,
	SettingsManager,
};

/**
 * pi loads extensions through its own loader, which re-transforms every JavaScript file it imports; the gate
 * (plain ESM, the bulk of the code) is loaded with Node's own loader instead (`require` of an ES module, Node
 * ≥ 22.12), which is several times faster. Only this entry goes through pi, so pi's packages (pi-tui, for the
 * TUI dialog) are imported here and handed over. The module sits next to this file in both layouts (`dist/` from tsc,
 * `dist/extension/` from the bundle).
 */
const nativeRequire = createRequire(import.meta.url);

async function loadGateModule(): Promise<GateModule> {
	const module: unknown = nativeRequire("./gate/session-gate.js");
	if (!isGateModule(module)) throw new Error("the gate module does not export startSessionGate");
	return module;
}

function isGateModule(value: unknown): value is GateModule {
	return (
		typeof value === "object" &&
		value !== null &&
		typeof Reflect.get(value, "startSessionGate") === "function"
	);
}
