import { homedir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { SessionGrants } from "../authority/session-grants.ts";
import type { TuiKit } from "../authority/tui-dialog.ts";
import { ParkedStore } from "../hub/parked-store.ts";
import { resolveAgentDir } from "../policy/config-paths.ts";
import { SessionGate } from "./session-gate.ts";

/** Session replacement (`/new`, `/resume`, `/fork`) starts without the old session's grants. */
const REPLACED = new Set(["new", "resume", "fork"]);

export async function startSessionGate(
	pi: ExtensionAPI,
	ctx: ExtensionContext,
	reason: string,
	env: Readonly<Record<string, string | undefined>>,
	tuiKit: TuiKit,
): Promise<SessionGate> {
	if (REPLACED.has(reason)) new SessionGrants(ctx.sessionManager.getSessionId()).clear();
	const agentDir = resolveAgentDir(env, env.HOME || homedir());
	const parked = new ParkedStore(join(agentDir, "pi-permission-hub", "parked"), agentDir);
	const gate = new SessionGate({ pi, ctx, env, parked, tuiKit });
	await gate.start(ctx.hasUI);
	return gate;
}
