/**
 * Asks parked by earlier print runs of a project, met by the next session with a UI there: one summary first
 * ("review now" / "later"), each ask then labelled with the run that parked it, and nothing but an explicit
 * deny denies — "later", Esc and a session that never reviews them leave them parked.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseAuditLine } from "../../src/audit/audit-entry.ts";
import { REVIEW_LATER, REVIEW_NOW } from "../../src/gate/forwarded-asks.ts";
import { parkedId } from "../cli/cli-support.ts";
import type { DialogPolicy, DialogRequest } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import { runPrint } from "../harness/print-run.ts";
import { startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditLines,
	bash,
	gateSandbox,
	LINKS_FIXTURE,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

const FILES = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"];

/** Five files, and a print run that tries to remove each: five parked asks, nobody to answer them. */
async function parkedByAPrintRun(): Promise<{ sb: Sandbox; ids: Map<string, string> }> {
	const sb = await gateSandbox();
	for (const name of FILES) await sb.writeWorkFile(name, "keep me");
	await writeScript(sb, scriptOf(FILES.map((name) => bash(`rm -f ${name}`))));
	const run = await runPrint({
		sandbox: sb,
		prompt: "clean up",
		extensions: [EXTENSION_ENTRY],
		mode: "json",
	});
	const ids = new Map<string, string>();
	for (const result of run.toolResults) {
		const name = /rm -f (\w\.txt)/.exec(result.text)?.[1];
		if (name === undefined) throw new Error(`not parked: ${result.text}`);
		ids.set(name, parkedId(result.text));
	}
	expect(ids.size).toBe(FILES.length);
	// The root's own turn afterwards only talks.
	await writeScript(sb, { conversations: [{ turns: [{ text: "nothing to do" }] }] });
	return { sb, ids };
}

function parkedFiles(sb: Sandbox): string[] {
	return readdirSync(path.join(sb.agentDir, "pi-permission-hub", "parked")).sort();
}

const isSummary = (request: DialogRequest): boolean => request.title.includes("parked in earlier runs");
const isParkedAsk = (request: DialogRequest): boolean =>
	request.title.startsWith("Parked in an earlier run:");

/** Fails the run on any dialog it does not expect. */
function only(expected: (request: DialogRequest) => boolean, policy: DialogPolicy): DialogPolicy {
	return (request) => {
		if (!expected(request)) throw new Error(`unexpected dialog: ${request.title}`);
		return policy(request);
	};
}

describe("asks parked by earlier runs, at the next start with a UI", () => {
	it("are summed up in one dialog; 'later' leaves every one of them parked and shows no other dialog, in a new session either", async () => {
		const { sb, ids } = await parkedByAPrintRun();
		const before = parkedFiles(sb);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: only(isSummary, () => ({ select: REVIEW_LATER })),
		});
		const summary = await rpc.waitForDialog(isSummary, 15_000);
		if (summary.request.method !== "select") throw new Error("the summary is a select");
		expect(summary.request.options).toEqual([REVIEW_NOW, REVIEW_LATER]);
		const title = summary.request.title;
		expect(title).toContain("5 asks were parked in earlier runs of this project");
		expect(title).toContain(
			"bash: rm -f a.txt — a print or JSON mode run (pi -p), where nobody could be asked, just now",
		);
		expect(title).not.toContain("more");
		expect(title.split("\n").filter((line) => line.startsWith("  bash: rm -f"))).toHaveLength(5);

		// A whole prompt round trip later, still no other dialog (the policy fails the run on one).
		const run = await rpc.prompt("anything?");
		expect(run.finalText).toBe("nothing to do");
		expect(rpc.dialogs).toHaveLength(1);
		// Later means not again while this pi runs: a new session in it does not offer them again (issue 26).
		await rpc.newSession();
		await new Promise((resolve) => setTimeout(resolve, 3_000));
		expect(rpc.dialogs).toHaveLength(1);
		await rpc.close();
		expect(parkedFiles(sb)).toEqual(before);
		expect(before).toEqual([...ids.values()].map((id) => `${id}.request.json`).sort());
		for (const name of FILES) expect(existsSync(sb.workPath(name))).toBe(true);
	});

	it("reviewed one by one with the run that parked them; only the explicit deny denies, Esc stops the review", async () => {
		const { sb, ids } = await parkedByAPrintRun();
		const answers = new Map<string, DialogPolicy>([
			["a.txt", () => ({ select: "Allow once" })],
			["b.txt", () => ({ select: "Deny" })],
			["c.txt", () => ({ select: "Later (keep it parked)" })],
			["d.txt", () => ({ cancel: true })],
		]);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: (request) => {
				if (isSummary(request)) return { select: REVIEW_NOW };
				const name = /rm -f (\w\.txt)/.exec(request.title)?.[1] ?? "";
				const answer = isParkedAsk(request) ? answers.get(name) : undefined;
				if (answer === undefined) throw new Error(`unexpected dialog: ${request.title}`);
				return answer(request);
			},
		});
		const auditedAsks = () =>
			auditLines(sb)
				.map((line) => JSON.parse(line))
				.filter((e) => e.event === "forwarded_ask");
		// e.txt's dialog never opens: Esc on d.txt's left it (and d.txt) parked.
		await expect.poll(() => auditedAsks().length, { timeout: 15_000 }).toBe(5);
		const asks = rpc.dialogs.filter((d) => isParkedAsk(d.request));
		expect(asks.map((d) => /rm -f (\w\.txt)/.exec(d.request.title)?.[1])).toEqual([
			"a.txt",
			"b.txt",
			"c.txt",
			"d.txt",
		]);
		const [first] = asks;
		if (first?.request.method !== "select") throw new Error("a parked ask is a select");
		expect(first.request.title).toMatch(/^Parked in an earlier run: bash \(destructive\) \(1 of 5\)\n/);
		expect(first.request.title).toContain(
			"Requested by: a print or JSON mode run (pi -p), where nobody could be asked, just now",
		);
		expect(first.request.title).toContain("Allowing lets exactly this action run once");
		expect(first.request.options).toEqual([
			"Allow once",
			"Deny",
			"Deny with a reason…",
			"Later (keep it parked)",
		]);

		const byRequest = new Map(auditedAsks().map((e) => [e.requestId, e]));
		expect(byRequest.get(ids.get("a.txt"))).toMatchObject({
			outcome: "allow",
			origin: { kind: "headless" },
			source: { kind: "user", verdict: "allow" },
		});
		expect(byRequest.get(ids.get("b.txt"))).toMatchObject({
			outcome: "deny",
			source: { kind: "user", verdict: "deny" },
		});
		for (const name of ["c.txt", "d.txt", "e.txt"]) {
			expect(byRequest.get(ids.get(name)), name).toMatchObject({ outcome: "pending" });
		}
		const answered = (name: string) => `${ids.get(name)}.answer.json`;
		expect(parkedFiles(sb)).toEqual(
			[...[...ids.values()].map((id) => `${id}.request.json`), answered("a.txt"), answered("b.txt")].sort(),
		);
		await rpc.close();

		// The approved one runs on the next attempt; the others are still blocked.
		await writeScript(sb, scriptOf(FILES.map((name) => bash(`rm -f ${name}`))));
		await runPrint({ sandbox: sb, prompt: "clean up again", extensions: [EXTENSION_ENTRY], mode: "json" });
		expect(FILES.filter((name) => existsSync(sb.workPath(name)))).toEqual([
			"b.txt",
			"c.txt",
			"d.txt",
			"e.txt",
		]);
	});

	it("one a newer version answered is not offered again: the start and /permissions say why, and it is never used", async () => {
		const { sb, ids } = await parkedByAPrintRun();
		const id = ids.get("a.txt") ?? "";
		const parkedDir = path.join(sb.agentDir, "pi-permission-hub", "parked");
		writeFileSync(path.join(parkedDir, `${id}.answer.json`), JSON.stringify({ format: 3, requestId: id }));
		const walk = new PermissionsWalk();
		const report = walk.lines;
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: walking(walk, (request) => {
				if (isSummary(request)) return { select: REVIEW_LATER };
				throw new Error(`unexpected dialog: ${request.title}`);
			}),
		});
		const summary = await rpc.waitForDialog(isSummary, 15_000);
		expect(summary.request.title).toContain("4 asks were parked in earlier runs of this project");
		expect(summary.request.title).not.toContain("rm -f a.txt");
		const newer = `parked ${id} (bash: rm -f a.txt): answered by a newer version of pi-permission-hub (answer format 3; this version reads format 2): this version cannot read the answer, and never takes it as an approval`;
		const warned = rpc.notifications.find((n) => n.message.includes("newer version"));
		expect(warned).toMatchObject({ notifyType: "warning" });
		expect(warned?.message).toContain(newer);
		expect((await rpc.prompt("/permissions")).disposition).toBe("handled");
		expect(report).toContain(newer);
		await rpc.close();

		// Never an approval: the next attempt at the same action is parked anew.
		await writeScript(sb, scriptOf([bash("rm -f a.txt")]));
		const again = await runPrint({
			sandbox: sb,
			prompt: "again",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});
		expect(again.toolResults[0]?.text).toMatch(/pending approval [0-9A-Z]{26}/);
		expect(existsSync(sb.workPath("a.txt"))).toBe(true);
	});

	it("an answer too large to be stored leaves the ask parked, and the human is told why", async () => {
		const { sb, ids } = await parkedByAPrintRun();
		const before = parkedFiles(sb);
		// Now a link denies each one, with a reason far too long for a parked answer.
		await writeUserConfig(sb, { authorizerChain: ["fixture-deny-verbose"] });
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY, LINKS_FIXTURE],
			dialog: only(isSummary, () => ({ select: REVIEW_NOW })),
		});
		const refused = () => rpc.notifications.filter((n) => n.message.includes("was not recorded"));
		await expect.poll(() => refused().length, { timeout: 15_000 }).toBe(FILES.length);
		for (const id of ids.values()) {
			expect(refused().map((n) => n.message)).toContainEqual(
				expect.stringMatching(
					new RegExp(
						`^pi-permission-hub: the answer to parked request ${id} was not recorded: .* more than the 16384 a parked answer may hold; the request stays parked, waiting for an answer$`,
					),
				),
			);
		}
		expect(refused().every((n) => n.notifyType === "warning")).toBe(true);
		// The audit says the link's denial counted for nothing: the ask is still pending, and why.
		const audited = () =>
			auditLines(sb)
				.map((line) => parseAuditLine(line))
				.filter((e) => e?.event === "forwarded_ask");
		await expect.poll(() => audited().length, { timeout: 5_000 }).toBe(FILES.length);
		for (const id of ids.values()) {
			expect(audited().find((e) => e?.requestId === id)).toMatchObject({
				outcome: "pending",
				source: { kind: "authorizer", link: "fixture-deny-verbose", verdict: "deny" },
				reason: expect.stringMatching(
					new RegExp(`^the answer to parked request ${id} was not recorded: .*; the request stays parked`),
				),
			});
		}
		await rpc.close();
		expect(parkedFiles(sb)).toEqual(before);
	});
});
