/**
 * The root's policy and a child's forwarded ask: the root's static allow rules do not approve it (the child
 * asked because its own, stricter policy said so), the root's deny rules refuse it without a dialog, and the
 * root's ask rules hold against its whole-tree grants, as they do for its own calls.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { writeUserConfig } from "./gate-support.ts";
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
	unwrap,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const RM = "rm -f victim.txt";
const rmRule = (action: "allow" | "ask" | "deny") => ({
	rules: [{ surface: "command", pattern: "rm *", action, reason: `rm is ${action} here` }],
});

describe("the root's rules and a child's forwarded ask", () => {
	it("a root allow rule (ceiling raised) approves the root's own rm, but the child's rm still asks the human", async () => {
		const hub = await hubSandbox();
		await writeUserConfig(hub.sb, {
			...rmRule("allow"),
			grantCeiling: { tier: "destructive", reason: "the test trusts rm" },
		});
		// The child works in strict/, whose trusted project file asks for rm: stricter than the root.
		await hub.sb.writeWorkFile("strict/.pi/pi-permission-hub.json", JSON.stringify(rmRule("ask")));
		await hub.sb.writeWorkFile("strict/victim.txt", "child's");
		await hub.sb.writeWorkFile("own.txt", "root's");
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall(RM)]),
			conversation(
				undefined,
				[bashCall("rm -f own.txt")],
				[launch("child", "[child] clean up", { cwd: "strict", args: ["--approve"] })],
			),
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")));

		const run = await rpc.prompt("clean up, then delegate");

		expect(existsSync(hub.sb.workPath("own.txt"))).toBe(false);
		expect(existsSync(hub.sb.workPath("strict/victim.txt"))).toBe(false);
		expect(run.dialogs).toHaveLength(1);
		expect(run.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(1);
		const child = childRun(hub, "child");
		const entries = () => auditNow(hub.sb).filter((e) => e.tool === "bash");
		await expect.poll(() => entries().length, { timeout: 5_000 }).toBe(3);
		const own = entries().find((e) => e.sessionId === rootId && e.event === "tool_call");
		expect(own).toMatchObject({ outcome: "allow", mode: "auto", source: { kind: "rule", action: "allow" } });
		const childLine = entries().find((e) => e.sessionId === child.sessionId);
		expect(childLine?.outcome).toBe("allow");
		expect(unwrap(childLine?.source ?? { kind: "gate_error", reason: "none" })).toMatchObject({
			responders: [rootId],
			decided: { kind: "user", verdict: "allow" },
		});
	});

	it("a root deny rule refuses the child's rm without a dialog: source forwarded → rule", async () => {
		const hub = await hubSandbox();
		// The root's trusted project file denies rm; the child works in sub/, where no project file applies.
		const rootProject = await hub.sb.writeWorkFile(
			".pi/pi-permission-hub.json",
			JSON.stringify(rmRule("deny")),
		);
		await hub.sb.writeWorkFile("sub/victim.txt", "child's");
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall(RM)]),
			conversation(undefined, [launch("child", "[child] clean up", { cwd: "sub" })]),
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, rootAllowsOwn(optionStarting("Allow once")), {
			args: ["--approve"],
		});

		const run = await rpc.prompt("delegate");

		expect(existsSync(hub.sb.workPath("sub/victim.txt"))).toBe(true);
		expect(run.dialogs).toEqual([]);
		const child = childRun(hub, "child");
		expect(child.toolResults[0]?.text).toContain(`matches the parent session's deny rule command "rm *"`);
		expect(child.toolResults[0]?.text).toContain("Reason: rm is deny here");
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === child.sessionId), { timeout: 5_000 })
			.toBeDefined();
		const line = auditNow(hub.sb).find((e) => e.sessionId === child.sessionId);
		expect(line).toMatchObject({ outcome: "deny", mode: "ask" });
		expect(unwrap(line?.source ?? { kind: "gate_error", reason: "none" })).toEqual({
			responders: [rootId],
			decided: {
				kind: "rule",
				action: "deny",
				surface: "command",
				pattern: "rm *",
				reason: "rm is deny here",
				origin: expect.objectContaining({ file: rootProject }),
			},
		});
	});

	it("a root ask rule holds against the root's whole-tree grant: the child's matching ask gets its own dialog, with no grant offered", async () => {
		const hub = await hubSandbox();
		await writeUserConfig(hub.sb, {
			rules: [{ surface: "command", pattern: "touch two.txt", action: "ask", reason: "look at each one" }],
		});
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall("touch one.txt")], [bashCall("touch two.txt")]),
			conversation(undefined, [launch("child", "[child] touch both")]),
		]);
		let forwardedAsks = 0;
		const { rpc } = await startRoot(
			hub,
			rootAllowsOwn((request) =>
				forwardedAsks++ === 0
					? optionStarting("Allow for the whole tree: touch *")(request)
					: optionStarting("Deny")(request),
			),
		);

		const run = await rpc.prompt("delegate");

		const dialogs = run.dialogs.filter((d) => isForwarded(d.request));
		expect(dialogs).toHaveLength(2);
		expect(dialogs[1]?.request.title).toContain("touch two.txt");
		const options = dialogs[1]?.request.method === "select" ? dialogs[1].request.options : [];
		expect(options.some((o) => o.startsWith("Allow for"))).toBe(false);
		expect(existsSync(hub.sb.workPath("one.txt"))).toBe(true);
		expect(existsSync(hub.sb.workPath("two.txt"))).toBe(false);
	});
});
