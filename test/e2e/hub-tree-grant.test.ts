/**
 * Two children ask at once, so their asks queue at the root. "Allow for the whole tree" on the first settles the
 * second, which the grant covers, without a dialog; a deny settles only its own request.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { DialogPolicy } from "../harness/dialog-policy.ts";
import type { RpcSession } from "../harness/rpc-session.ts";
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

/** Resolves once the root holds `count` forwarded asks (so the others are queued behind the one shown). */
async function pending(session: () => RpcSession, count: number): Promise<void> {
	const wanted = `${count} forwarded asks pending`;
	const deadline = Date.now() + 15_000;
	while (!session().statuses.get("pi-permission-hub")?.includes(wanted)) {
		if (Date.now() > deadline) throw new Error(`the root never showed "${wanted}"`);
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
}

/** Answers the first forwarded dialog with `first` once both asks are pending, later ones with `then`. */
function firstOfTwo(session: () => RpcSession, first: DialogPolicy, then: DialogPolicy): DialogPolicy {
	let answered = 0;
	return async (request) => {
		if (answered++ > 0) return then(request);
		await pending(session, 2);
		return first(request);
	};
}

async function twoChildren(first: string, second: string) {
	const hub = await hubSandbox();
	await writeTree(hub.sb, [
		conversation("[one]", [bashCall(first)]),
		conversation("[two]", [bashCall(second)]),
		conversation(undefined, [
			launch("one", "[one] work", { name: "one" }),
			launch("two", "[two] work", { name: "two" }),
		]),
	]);
	return hub;
}

describe("queued forwarded asks", () => {
	it("a whole-tree grant on the first resolves the second without a dialog", async () => {
		const hub = await twoChildren("touch one.txt", "touch two.txt");
		let rpc: RpcSession | undefined;
		const session = () => {
			if (!rpc) throw new Error("no root yet");
			return rpc;
		};
		const root = await startRoot(
			hub,
			rootAllowsOwn(
				firstOfTwo(session, optionStarting("Allow for the whole tree: touch *"), optionStarting("Deny")),
			),
		);
		rpc = root.rpc;

		await rpc.prompt("delegate both");

		expect(existsSync(hub.sb.workPath("one.txt"))).toBe(true);
		expect(existsSync(hub.sb.workPath("two.txt"))).toBe(true);
		const dialogs = rpc.dialogs.filter((d) => isForwarded(d.request));
		expect(dialogs).toHaveLength(1);
		const shown = dialogs[0]?.request.title.includes("root ← one") ? "one" : "two";
		const settled = shown === "one" ? "two" : "one";

		const lineOf = (label: string) => {
			const { sessionId } = childRun(hub, label);
			return auditNow(hub.sb).find((e) => e.sessionId === sessionId && e.event === "tool_call");
		};
		await expect.poll(() => lineOf("one") && lineOf("two"), { timeout: 5_000 }).toBeDefined();
		expect(unwrap(lineOf(shown)?.source ?? { kind: "gate_error", reason: "none" })).toEqual({
			responders: [root.sessionId],
			decided: { kind: "user", via: "dialog", verdict: "allow", scope: "tree" },
		});
		expect(unwrap(lineOf(settled)?.source ?? { kind: "gate_error", reason: "none" })).toMatchObject({
			responders: [root.sessionId],
			decided: { kind: "session_grant", scope: "tree", surface: "command", pattern: "touch *" },
		});
	});

	it("a deny answers only its own request: the other one still gets its dialog", async () => {
		const hub = await twoChildren("touch one.txt", "touch two.txt");
		let rpc: RpcSession | undefined;
		const session = () => {
			if (!rpc) throw new Error("no root yet");
			return rpc;
		};
		const root = await startRoot(
			hub,
			rootAllowsOwn(firstOfTwo(session, optionStarting("Deny"), optionStarting("Allow once"))),
		);
		rpc = root.rpc;

		await rpc.prompt("delegate both");

		const dialogs = rpc.dialogs.filter((d) => isForwarded(d.request));
		expect(dialogs).toHaveLength(2);
		const denied = dialogs[0]?.request.title.includes("root ← one") ? "one" : "two";
		const allowed = denied === "one" ? "two" : "one";
		expect(dialogs[1]?.request.title).toContain(`root ← ${allowed}`);
		// The second ask waited behind the first; its dialog says where it stands in the queue.
		expect(dialogs[1]?.request.title.split("\n")[0]).toBe("Permission needed: bash (write) (2 of 2)");
		expect(existsSync(hub.sb.workPath(`${denied}.txt`))).toBe(false);
		expect(existsSync(hub.sb.workPath(`${allowed}.txt`))).toBe(true);
		expect(childRun(hub, denied).toolResults[0]?.text).toContain("The user denied");
	});
});
