/**
 * Parked asks (`unanswered: defer`) outlive the root: a child's ask is parked while a root shows it; that root
 * quits unanswered; a new root with a UI in the same project offers it again; the approval given there lets
 * exactly the identical action through once, in a later child run, and nothing else.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { never } from "../harness/dialog-policy.ts";
import { LINKS_FIXTURE, writeUserConfig } from "./gate-support.ts";
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
	reviewParked,
	rootAllowsOwn,
	startRoot,
	writeTree,
} from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

const RM = "rm -f victim.txt";
const OTHER_RM = "rm -f other.txt";

function parkedExpiry(hub: HubSandbox, requestId: string): string {
	const file = path.join(hub.sb.agentDir, "pi-permission-hub", "parked", `${requestId}.request.json`);
	return z.object({ expiresAt: z.string() }).parse(JSON.parse(readFileSync(file, "utf8"))).expiresAt;
}

function parkedFiles(hub: HubSandbox): string[] {
	const dir = path.join(hub.sb.agentDir, "pi-permission-hub", "parked");
	return existsSync(dir) ? readdirSync(dir).sort() : [];
}

describe("a parked ask and a root restart", () => {
	it("is offered again by the next root; its approval lets the identical action through once", async () => {
		const hub = await hubSandbox();
		await writeUserConfig(hub.sb, { unanswered: "defer" });
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await hub.sb.writeWorkFile("other.txt", "keep me too");
		await writeTree(hub.sb, [
			conversation("[same]", [bashCall(RM)]),
			conversation("[other]", [bashCall(OTHER_RM)]),
			conversation("[root A]", [launch("first", "[same] remove the victim")]),
			promptConversation(
				"[root B]",
				[launch("second", "[same] remove the victim")],
				[launch("third", "[same] remove the victim"), launch("fourth", "[other] remove the other")],
			),
		]);

		// Root A shows the parked ask and quits without an answer.
		const a = await startRoot(hub, rootAllowsOwn(never));
		await a.rpc.prompt("[root A] delegate");
		const first = childRun(hub, "first");
		expect(first.toolResults[0]?.text).toMatch(/is pending approval [0-9A-Z]{26}/);
		const requestId = /pending approval ([0-9A-Z]{26})/.exec(first.toolResults[0]?.text ?? "")?.[1];
		expect(a.rpc.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(1);
		expect(parkedFiles(hub)).toEqual([`${requestId}.request.json`]);
		await a.rpc.close();
		// Quitting withdrew the dialog; that is not an answer.
		expect(parkedFiles(hub)).toEqual([`${requestId}.request.json`]);

		// Root B offers it again at start; the human approves it there.
		const b = await startRoot(hub, reviewParked(rootAllowsOwn(optionStarting("Allow once"))));
		const offered = await b.rpc.waitForDialog(isForwarded, 10_000);
		expect(offered.request.title).toContain(`bash: ${RM}`);
		expect(offered.request.title).toContain("Requested by: subagent root ← subagent");
		await expect.poll(() => parkedFiles(hub), { timeout: 5_000 }).toContain(`${requestId}.answer.json`);
		b.rpc.setDialogPolicy(rootAllowsOwn(never));
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === b.sessionId && e.event === "forwarded_ask"), {
				timeout: 5_000,
			})
			.toMatchObject({ requestId, outcome: "allow", source: { kind: "user", verdict: "allow" } });

		// A later child run of the identical action goes through, using the approval up.
		await b.rpc.prompt("[root B] delegate again");
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);
		const second = childRun(hub, "second");
		expect(second.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(parkedFiles(hub)).toEqual([]);
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === second.sessionId)?.source, { timeout: 5_000 })
			.toMatchObject({
				kind: "parked_approval",
				requestId,
				approvedBy: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
			});

		// Once only, and for that action only: the same action again and a different one are parked anew.
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await b.rpc.prompt("and once more");
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(true);
		expect(existsSync(hub.sb.workPath("other.txt"))).toBe(true);
		for (const label of ["third", "fourth"]) {
			expect(childRun(hub, label).toolResults[0]?.text).toMatch(/is pending approval [0-9A-Z]{26}/);
		}
		// Both new asks reached root B (one at its dialog, the other queued behind it); neither was auto-approved.
		await expect
			.poll(() => b.rpc.statuses.get("pi-permission-hub"), { timeout: 5_000 })
			.toContain("2 forwarded asks pending");
		expect(b.rpc.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(2);
	});

	it("offered again and left unanswered again: counted as pending meanwhile, and it keeps its first expiry", async () => {
		const hub = await hubSandbox();
		await writeUserConfig(hub.sb, { unanswered: "defer" });
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await writeTree(hub.sb, [
			conversation("[same]", [bashCall(RM)]),
			conversation("[root A]", [launch("first", "[same] remove the victim")]),
		]);
		const a = await startRoot(hub, rootAllowsOwn(never));
		await a.rpc.prompt("[root A] delegate");
		const requestId = /pending approval ([0-9A-Z]{26})/.exec(
			childRun(hub, "first").toolResults[0]?.text ?? "",
		)?.[1];
		if (requestId === undefined) throw new Error("the child's ask was not parked");
		await a.rpc.close();
		const firstExpiry = parkedExpiry(hub, requestId);

		// Root B offers it with a 1 s dialog timeout and nobody answers: the ask is parked again, same expiry.
		await writeUserConfig(hub.sb, { unanswered: "defer", dialogTimeoutSeconds: 1 });
		const b = await startRoot(hub, reviewParked(rootAllowsOwn(never)));
		await b.rpc.waitForDialog(isForwarded, 10_000);
		// Named as what it is, by the child that parked it: not a live child's ask, nor the root's (issue 26).
		await expect
			.poll(() => b.rpc.statuses.get("pi-permission-hub") ?? "", { timeout: 5_000 })
			.toMatch(/1 parked ask from earlier runs pending \(subagent root ← [^)]+\)/);
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === b.sessionId && e.event === "forwarded_ask"), {
				timeout: 10_000,
			})
			.toMatchObject({ requestId, outcome: "pending" });
		expect(parkedFiles(hub)).toEqual([`${requestId}.request.json`]);
		expect(parkedExpiry(hub, requestId)).toBe(firstExpiry);
		await expect
			.poll(() => b.rpc.statuses.get("pi-permission-hub") ?? "", { timeout: 5_000 })
			.not.toContain("pending");
	});
});

describe("a parked ask settled without a human", () => {
	it("a link at the root settles it; its later use names the link, never a dialog", async () => {
		const hub = await hubSandbox();
		// The children have no such link (only the root loads it): their asks are parked and go to the root.
		await writeUserConfig(hub.sb, { unanswered: "defer", authorizerChain: ["fixture-allow"] });
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await writeTree(hub.sb, [
			conversation("[same]", [bashCall(RM)]),
			promptConversation(
				"[root]",
				[launch("first", "[same] remove the victim")],
				[launch("second", "[same] remove the victim")],
			),
		]);
		const root = await startRoot(hub, rootAllowsOwn(never), { extensions: [LINKS_FIXTURE] });
		await root.rpc.prompt("[root] delegate");
		const requestId = /pending approval ([0-9A-Z]{26})/.exec(
			childRun(hub, "first").toolResults[0]?.text ?? "",
		)?.[1];
		if (requestId === undefined) throw new Error("the child's ask was not parked");
		const link = { kind: "authorizer", link: "fixture-allow", verdict: "allow", reason: "fixture says yes" };
		await expect
			.poll(() => parkedFiles(hub), { timeout: 5_000 })
			.toEqual([`${requestId}.answer.json`, `${requestId}.request.json`]);

		await root.rpc.prompt("[root] delegate again");
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);
		const second = childRun(hub, "second");
		expect(second.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		await expect
			.poll(() => auditNow(hub.sb).find((e) => e.sessionId === second.sessionId)?.source, { timeout: 5_000 })
			.toEqual({ kind: "parked_approval", requestId, approvedBy: link });
		// Nobody was shown the child's ask.
		expect(root.rpc.dialogs.filter((d) => isForwarded(d.request))).toEqual([]);
	});
});
