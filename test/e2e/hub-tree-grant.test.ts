/**
 * Two children ask at once, so their asks queue at the root. "Allow for the whole tree" on the first settles the
 * second, which the grant covers, without a dialog; a deny settles only its own request. A whole-tree grant given
 * as the answer to a parked ask that the parked store refuses is never made.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-support.ts";
import type { DialogPolicy } from "../harness/dialog-policy.ts";
import type { RpcSession } from "../harness/rpc-session.ts";
import { writeUserConfig } from "./gate-support.ts";
import {
	auditNow,
	bashCall,
	childRun,
	cleanUpHubWorlds,
	conversation,
	type HubSandbox,
	hubSandbox,
	isForwarded,
	launch,
	optionStarting,
	promptConversation,
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

/** The ids of the asks parked in the sandbox's store, answered or not. */
function parkedIds(hub: HubSandbox): string[] {
	const dir = path.join(hub.sb.agentDir, "pi-permission-hub", "parked");
	if (!existsSync(dir)) return [];
	return readdirSync(dir)
		.filter((name) => name.endsWith(".request.json"))
		.map((name) => name.slice(0, -".request.json".length));
}

function pendingId(hub: HubSandbox, label: string): string {
	const id = /pending approval ([0-9A-Z]{26})/.exec(childRun(hub, label).toolResults[0]?.text ?? "")?.[1];
	if (id === undefined) throw new Error(`the ask of ${label} was not parked`);
	return id;
}

describe("a whole-tree grant answering a parked ask", () => {
	it("answered from the CLI while the root's dialog showed it: the grant is refused with the answer, and the next ask is asked", async () => {
		const hub = await hubSandbox();
		await writeUserConfig(hub.sb, { unanswered: "defer" });
		await writeTree(hub.sb, [
			conversation("[one]", [bashCall("touch one.txt")]),
			conversation("[two]", [bashCall("touch two.txt")]),
			promptConversation(
				"[root]",
				[launch("one", "[one] work", { name: "one" })],
				[launch("two", "[two] work", { name: "two" })],
			),
		]);
		let answered = 0;
		const root = await startRoot(
			hub,
			rootAllowsOwn(async (request) => {
				if (answered++ > 0) return optionStarting("Deny")(request);
				// The race, made certain: the CLI answers the parked ask while this dialog is open; then the human
				// grants for the whole tree.
				const [id] = parkedIds(hub);
				const cli = await runCli(hub.sb, ["deny", id ?? "none", "--reason", "closed from the CLI"]);
				if (cli.code !== 0) throw new Error(`deny failed: ${cli.stderr}`);
				return optionStarting("Allow for the whole tree: touch *")(request);
			}),
		);
		await root.rpc.prompt("[root] delegate");
		const first = pendingId(hub, "one");
		const forwardedLine = (id: string) =>
			auditNow(hub.sb).find((e) => e.event === "forwarded_ask" && e.requestId === id);
		await expect
			.poll(() => forwardedLine(first), { timeout: 15_000 })
			.toMatchObject({
				outcome: "deny",
				answerRefused: "answered",
				source: { kind: "user", verdict: "allow", scope: "tree" },
				reason: `parked request ${first} was already answered: the first answer stands, and this one was not recorded`,
			});

		// The grant the refused answer carried is in force nowhere: the next child's ask it would cover is asked.
		await root.rpc.prompt("[root] delegate again");
		const second = pendingId(hub, "two");
		await expect
			.poll(() => forwardedLine(second), { timeout: 15_000 })
			.toMatchObject({
				outcome: "deny",
				source: { kind: "user", verdict: "deny" },
			});
		expect(root.rpc.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(2);
		expect(existsSync(hub.sb.workPath("two.txt"))).toBe(false);
	});
});
