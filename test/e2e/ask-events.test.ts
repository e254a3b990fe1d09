/**
 * "Know when you are asked": real pi in RPC mode with the built extension and a fixture extension that watches
 * dialogs the way a status bar would (`onAsk` and the `pi.events` channels, plus a listener that throws on each).
 * Each dialog opens when it is put in front of the human and closes with what ended it; a subagent's ask, shown
 * at the root, says who asks and where it stands in the queue.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ASK_LOG_ENV } from "../fixtures/ask-events-extension.ts";
import { never, pickOption, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { type RpcSession, startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { auditEntries, bash, gateSandbox, promptsOf, scriptOf, writeUserConfig } from "./gate-support.ts";
import {
	bashCall,
	cleanUpHubWorlds,
	conversation,
	type HubSandbox,
	hubSandbox,
	launch,
	optionStarting,
	rootAllowsOwn,
	startRoot,
	writeTree,
} from "./hub-support.ts";

const ASK_EVENTS_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "ask-events-extension.ts");

afterEach(cleanUpHubWorlds);

/** One line of the fixture's log: the route it came by and the event as the gate published it. */
const loggedSchema = z.object({
	via: z.enum(["onAsk", "pi.events"]),
	event: z.looseObject({
		version: z.literal(1),
		phase: z.enum(["opened", "closed"]),
		askId: z.string().min(1),
		sessionId: z.string().min(1),
		kind: z.enum(["own", "forwarded", "parked"]),
		tool: z.string(),
		preview: z.string(),
		outcome: z.string().optional(),
	}),
});
type Logged = z.infer<typeof loggedSchema>["event"];

function askLog(sb: Sandbox): string {
	return path.join(sb.root, "asks.jsonl");
}

/** The events one route delivered, in order. */
function heard(sb: Sandbox, via: "onAsk" | "pi.events"): Logged[] {
	const file = askLog(sb);
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => loggedSchema.parse(JSON.parse(line)))
		.filter((line) => line.via === via)
		.map((line) => line.event);
}

/** `opened rm -f a.txt` / `closed rm -f a.txt allow`: the story of the dialogs, for a readable comparison. */
function story(events: readonly Logged[]): string[] {
	return events.map((e) => `${e.phase} ${e.preview}${e.phase === "closed" ? ` ${e.outcome}` : ""}`);
}

/** Both routes carry the same events, and each closed event pairs with the opened one before it. */
function expectBothRoutesAlike(sb: Sandbox): Logged[] {
	const events = heard(sb, "onAsk");
	expect(heard(sb, "pi.events")).toEqual(events);
	for (const [index, event] of events.entries()) {
		if (event.phase === "closed")
			expect(events[index - 1]).toMatchObject({ phase: "opened", askId: event.askId });
	}
	return events;
}

async function rpcWithWatcher(
	sb: Sandbox,
	dialog: Parameters<typeof startRpc>[0]["dialog"],
): Promise<RpcSession> {
	return startRpc({
		sandbox: sb,
		extensions: [EXTENSION_ENTRY, ASK_EVENTS_FIXTURE],
		env: { [ASK_LOG_ENV]: askLog(sb) },
		dialog,
	});
}

describe("this session's own asks", () => {
	it("opened when shown with the ask, who asks and its place; closed with the answer; throwing listeners change nothing", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
		const rpc = await rpcWithWatcher(sb, pickOption("Allow once"));
		const { sessionId } = await rpc.getState();

		await rpc.prompt("delete it");

		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		const events = expectBothRoutesAlike(sb);
		expect(story(events)).toEqual(["opened rm -f victim.txt", "closed rm -f victim.txt allow"]);
		const [opened, closed] = events;
		expect(opened).toMatchObject({
			sessionId,
			kind: "own",
			origin: { kind: "human" },
			tool: "bash",
			tier: "destructive",
			cwd: sb.workDir,
			why: expect.stringContaining("destructive"),
			position: { index: 1, total: 1 },
		});
		const deadline = z.object({ time: z.iso.datetime(), deadline: z.iso.datetime() }).parse(opened);
		expect(Date.parse(deadline.deadline) - Date.parse(deadline.time)).toBe(300_000);
		expect(closed).toMatchObject({ sessionId, durationMs: expect.any(Number) });
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ outcome: "allow", source: { kind: "user", verdict: "allow" } });
	});

	it("Esc closes as dismissed, an unanswered dialog as timeout", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { dialogTimeoutSeconds: 1 });
		await writeScript(sb, promptsOf([bash("rm -f a.txt")], [bash("rm -f b.txt")]));
		const rpc = await rpcWithWatcher(sb, scripted([{ cancel: true }, { never: true }]));

		await rpc.prompt("delete a");
		await rpc.prompt("delete b", { timeoutMs: 15_000 });

		expect(story(expectBothRoutesAlike(sb))).toEqual([
			"opened rm -f a.txt",
			"closed rm -f a.txt dismissed",
			"opened rm -f b.txt",
			"closed rm -f b.txt timeout",
		]);
	});

	it("aborting the run while the dialog is open closes it as withdrawn", async () => {
		const sb = await gateSandbox();
		await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
		const rpc = await rpcWithWatcher(sb, never);

		const running = rpc.prompt("delete it");
		await rpc.waitForDialog((request) => request.method === "select");
		expect(story(heard(sb, "onAsk"))).toEqual(["opened rm -f victim.txt"]);
		await rpc.request({ type: "abort" });
		await running;

		await expect
			.poll(() => story(heard(sb, "onAsk")))
			.toEqual(["opened rm -f victim.txt", "closed rm -f victim.txt withdrawn"]);
		expectBothRoutesAlike(sb);
	});
});

describe("asks forwarded by subagents", () => {
	/** Resolves once the root holds `count` forwarded asks (so the others are queued behind the one shown). */
	async function pending(rpc: () => RpcSession, count: number): Promise<void> {
		const wanted = `${count} forwarded asks pending`;
		await expect
			.poll(() => rpc().statuses.get("pi-permission-hub") ?? "", { timeout: 15_000, interval: 25 })
			.toContain(wanted);
	}

	async function twoChildren(hub: HubSandbox): Promise<void> {
		await writeTree(hub.sb, [
			conversation("[one]", [bashCall("touch one.txt")]),
			conversation("[two]", [bashCall("touch two.txt")]),
			conversation(undefined, [
				launch("one", "[one] work", { name: "one" }),
				launch("two", "[two] work", { name: "two" }),
			]),
		]);
	}

	it("each opens at the root in its turn, naming the subagent, its request and its position, and closes with its answer", async () => {
		const hub = await hubSandbox();
		await twoChildren(hub);
		let rpc: RpcSession | undefined;
		const root = (): RpcSession => {
			if (!rpc) throw new Error("no root yet");
			return rpc;
		};
		let answered = 0;
		const watched = { ...hub, env: { ...hub.env, [ASK_LOG_ENV]: askLog(hub.sb) } };
		const started = await startRoot(
			watched,
			rootAllowsOwn(async (request) => {
				if (answered++ > 0) return optionStarting("Allow once")(request);
				await pending(root, 2);
				return optionStarting("Deny")(request);
			}),
			{ extensions: [ASK_EVENTS_FIXTURE] },
		);
		rpc = started.rpc;

		await rpc.prompt("delegate both");

		const events = expectBothRoutesAlike(hub.sb);
		const forwarded = events.filter((e) => e.kind === "forwarded");
		expect(forwarded.map((e) => e.phase)).toEqual(["opened", "closed", "opened", "closed"]);
		const [firstOpened, firstClosed, secondOpened, secondClosed] = forwarded;
		const first = firstOpened?.preview === "touch one.txt" ? "one" : "two";
		const second = first === "one" ? "two" : "one";
		expect(firstOpened).toMatchObject({
			sessionId: started.sessionId,
			tool: "bash",
			tier: "write",
			preview: `touch ${first}.txt`,
			origin: { kind: "subagent", name: first, path: ["root", first] },
			requestId: expect.any(String),
			// The first of the burst; its total depends on whether the other child had asked yet.
			position: { index: 1 },
		});
		expect(firstClosed).toMatchObject({ askId: firstOpened?.askId, outcome: "deny" });
		expect(secondOpened).toMatchObject({
			preview: `touch ${second}.txt`,
			origin: { kind: "subagent", name: second, path: ["root", second] },
			position: { index: 2, total: 2 },
		});
		expect(secondClosed).toMatchObject({ askId: secondOpened?.askId, outcome: "allow" });
		expect(existsSync(hub.sb.workPath(`${first}.txt`))).toBe(false);
		expect(existsSync(hub.sb.workPath(`${second}.txt`))).toBe(true);
	});
});
