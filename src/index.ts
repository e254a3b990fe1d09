/**
 * pi-permission-hub: the composition root. The factory only registers handlers (pi runs it for every
 * runtime, including ones that never start a session); the gate and its dependencies load at
 * `session_start`, and every handler fails closed if they could not.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { listenForLinkRegistrations } from "./authority/event-registration.ts";
import type { SessionGate } from "./gate/session-gate.ts";

export default function piPermissionHub(pi: ExtensionAPI): void {
	let gate: Promise<SessionGate> | null = null;
	listenForLinkRegistrations(pi.events);

	const start = (ctx: ExtensionContext, reason: string): Promise<SessionGate> => {
		gate = import("./gate/start-session-gate.ts").then(({ startSessionGate }) =>
			startSessionGate(pi, ctx, reason, process.env),
		);
		// A failure is reported by every handler that awaits it; this only keeps it from being unhandled.
		gate.catch(() => undefined);
		return gate;
	};
	const current = (ctx: ExtensionContext): Promise<SessionGate> => gate ?? start(ctx, "startup");

	pi.on("session_start", async (event, ctx) => {
		await start(ctx, event.reason).catch(() => undefined);
	});

	pi.on("tool_call", async (event, ctx) => {
		try {
			return await (await current(ctx)).onToolCall(event, ctx);
		} catch (error) {
			return { block: true, reason: unavailableGate(event.toolName, error) };
		}
	});

	pi.on("user_bash", async (event, ctx) => {
		try {
			return await (await current(ctx)).onUserBash(event, ctx);
		} catch (error) {
			const output = `${unavailableGate("bash", error)}\n`;
			return { result: { output, exitCode: 1, cancelled: false, truncated: false } };
		}
	});

	pi.on("before_agent_start", async (event, ctx) => {
		(await current(ctx).catch(() => null))?.onBeforeAgentStart(event);
	});

	pi.on("session_shutdown", async () => {
		const closing = gate;
		gate = null;
		await (await closing?.catch(() => null))?.shutdown();
	});
}

function unavailableGate(tool: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return `Blocked by pi-permission-hub: the permission gate could not start, so this ${tool} call was blocked (fail closed): ${message}. Do not retry; tell the user.`;
}
