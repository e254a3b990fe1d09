/**
 * A forwarded ask is judged on its input (adr/0006): a real root (pi in RPC mode) receives requests from a child
 * process that writes them itself. One declares `rm -rf build` as a read with a matching made-up hash: the root
 * refuses it without asking anyone and answers "unavailable". An honest one is shown with the root's own preview
 * and the grants the root works out itself, never the pattern the child offered.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { actionHash } from "../../src/classify/action-hash.ts";
import { inboxLayout } from "../../src/hub/protocol.ts";
import { spawnChild } from "../hub/hub-fixture.ts";
import {
	auditNow,
	cleanUpHubWorlds,
	hubSandbox,
	isForwarded,
	optionStarting,
	startRoot,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const COMMAND = "rm -rf build";

describe("a forwarded ask is judged on its tool, input and cwd", () => {
	it("a request whose tier and hash disagree with its input is refused unasked; an honest one asks", async () => {
		const hub = await hubSandbox();
		const { rpc, sessionId } = await startRoot(hub, optionStarting("Allow once"));
		const layout = inboxLayout(hub.sb.agentDir, sessionId);
		const input = { command: COMMAND };
		const cwd = hub.sb.workDir;
		const childOffers = [
			{ surface: "command", pattern: "*", limit: { tier: "privileged", outsideCwd: true } },
		];
		const ask = (request: Record<string, unknown>) =>
			spawnChild({
				mode: "ask",
				inbox: layout.root,
				sessionId,
				pid: rpc.pid,
				logFile: path.join(hub.sb.root, "child-hub.jsonl"),
				timeoutMs: 20_000,
				request: { input, cwd, suggestions: childOffers, grantable: true, ...request },
			}).next((line) => line.event === "outcome", 30_000);

		const forged = await ask({
			tier: "read",
			actionHash: actionHash({ tool: "bash", input, cwd, tier: "read" }),
			preview: "ls",
			asking: [{ tier: "read", why: "just looking", command: "ls" }],
		});
		expect(forged).toMatchObject({ kind: "answered", decision: "deny", source: { kind: "unavailable" } });
		expect(JSON.stringify(forged.source)).toContain("does not match its own action");
		expect(rpc.dialogs.filter((d) => isForwarded(d.request))).toEqual([]);

		const honest = await ask({
			tier: "destructive",
			actionHash: actionHash({ tool: "bash", input, cwd, tier: "destructive" }),
		});
		expect(honest).toMatchObject({ kind: "answered", decision: "allow" });
		const dialogs = rpc.dialogs.filter((d) => isForwarded(d.request));
		expect(dialogs).toHaveLength(1);
		const shown = dialogs[0]?.request;
		// The grants offered are the root's own, for exactly the command shown; the child's "*" is not among them.
		expect(shown?.method === "select" && shown.options).toEqual([
			"Allow once",
			`Allow for this subagent: ${COMMAND}`,
			`Allow for the whole tree: ${COMMAND}`,
			"Deny",
			"Deny with a reason…",
			`Always deny in ${cwd}: ${COMMAND}`,
		]);
		expect(JSON.stringify(shown)).toContain(COMMAND);

		await expect
			.poll(() => auditNow(hub.sb).filter((e) => e.event === "forwarded_ask").length, { timeout: 5_000 })
			.toBe(2);
		const lines = auditNow(hub.sb).filter((e) => e.event === "forwarded_ask");
		expect(lines.map((e) => [e.outcome, e.source.kind])).toEqual([
			["deny", "unavailable"],
			["allow", "user"],
		]);
	});
});
