/**
 * Saved rules and permission modes across a tree of real pi processes (adr/0018, adr/0023): "Always allow" on a
 * subagent's ask is saved in the root's user config and decides for every later subagent; a forwarded ask is
 * decided under the mode of the session that decides it.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAllRpc } from "../harness/rpc-session.ts";
import {
	auditNow,
	bashCall,
	childRun,
	cleanUpHubWorlds,
	conversation,
	hubSandbox,
	isForwarded,
	launch,
	optionStarting,
	rootAllowsOwn,
	startRoot,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

describe("across subagents", () => {
	it("'Always allow' on a subagent's ask is saved in the root's config; the next subagent's same call asks nobody", async () => {
		const hub = await hubSandbox();
		await writeTree(hub.sb, [
			conversation("[one]", [bashCall("touch one.txt")]),
			conversation(undefined, [launch("one", "[one] work", { name: "one" })]),
		]);
		const first = await startRoot(
			hub,
			rootAllowsOwn(optionStarting(`Always allow in ${hub.sb.workDir}: touch *`)),
		);
		await first.rpc.prompt("delegate");
		expect(existsSync(hub.sb.workPath("one.txt"))).toBe(true);
		const config = readFileSync(path.join(hub.sb.agentDir, "pi-permission-hub", "config.json"), "utf8");
		expect(config).toContain('"pattern": "touch *"');
		await killAllRpc();

		await writeTree(hub.sb, [
			conversation("[two]", [bashCall("touch two.txt")]),
			conversation(undefined, [launch("two", "[two] work", { name: "two" })]),
		]);
		const second = await startRoot(hub, rootAllowsOwn(optionStarting("Deny")));
		await second.rpc.prompt("delegate again");

		expect(existsSync(hub.sb.workPath("two.txt"))).toBe(true);
		expect(second.rpc.dialogs.filter((d) => isForwarded(d.request))).toEqual([]);
		const child = childRun(hub, "two");
		const decided = auditNow(hub.sb).find(
			(e) => e.sessionId === child.sessionId && e.preview.includes("touch two.txt"),
		);
		expect(decided?.source).toMatchObject({ kind: "rule", pattern: "touch *", saved: expect.any(String) });
	});

	it("a subagent's ask is decided under the root's mode: trusted allows its destructive call without a dialog", async () => {
		const hub = await hubSandbox();
		await hub.sb.writeWorkFile("old.log", "x");
		await writeTree(hub.sb, [
			conversation("[one]", [bashCall("rm -f old.log")]),
			conversation(undefined, [launch("one", "[one] clean", { name: "one" })]),
		]);
		const { rpc, sessionId } = await startRoot(hub, optionStarting("Deny"), {
			args: ["--permission-mode", "trusted"],
		});

		await rpc.prompt("delegate the clean-up");

		expect(existsSync(hub.sb.workPath("old.log"))).toBe(false);
		expect(rpc.dialogs).toEqual([]);
		const atRoot = auditNow(hub.sb).find((e) => e.sessionId === sessionId && e.event === "forwarded_ask");
		expect(atRoot).toMatchObject({
			outcome: "allow",
			source: { kind: "mode", mode: "trusted" },
			permissionMode: "trusted",
		});
	});
});
