/**
 * The parked-request loop end to end: a real headless pi run parks an ask ("pending approval <id>"), the built
 * CLI lists and answers it, and the next real pi run shows what the answer did to files on disk.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	assertCliBuilt,
	auditEntries,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	type Envelope,
	parkedId,
	piRun,
	resultText,
	runCli,
	runCliJson,
	waitForAuditLines,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

/** `approve` on a request already answered (or whose answer cannot count): refused, exit 1, with `message`. */
async function expectApprovalRefused(sb: Sandbox, id: string, message: string): Promise<void> {
	const again = await runCliJson(sb, ["approve", id]);
	expect(again.code).toBe(1);
	expect(again.json).toMatchObject({ ok: false, error: { kind: "already_answered" } });
	expect(again.json.error?.message).toContain(message);
}

/** Never an approval: the same `rm -f victim.txt` is blocked and parked anew, under another id, and the file stays. */
async function expectParkedAnew(sb: Sandbox, id: string): Promise<void> {
	const next = await piRun(sb, [bash("rm -f victim.txt")]);
	const [result] = next.toolResults;
	expect(result?.isError).toBe(true);
	expect(parkedId(result?.text ?? "")).not.toBe(id);
	expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
}

describe("approve", () => {
	it("a parked rm is listed, approved once from the CLI, and then only the identical action runs, once", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "delete me later");
		await sb.writeWorkFile("bystander.txt", "keep me");

		const first = await piRun(sb, [bash("rm -f victim.txt")]);
		const [blocked] = first.toolResults;
		expect(blocked?.isError).toBe(true);
		const id = parkedId(blocked?.text ?? "");
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);

		const pending = await runCli(sb, ["pending"]);
		expect(pending.code).toBe(0);
		expect(pending.stdout).toContain("1 parked request (1 waiting for an answer)");
		expect(pending.stdout).toContain(`${id}  waiting`);
		expect(pending.stdout).toContain("asked by  a print or JSON mode run (pi -p)");
		expect(pending.stdout).toContain("bash (destructive)");
		expect(pending.stdout).toContain("rm -f victim.txt");
		expect(pending.stdout).toMatch(/expires in 23h 5\dm/);
		const pendingJson = await runCliJson(sb, ["pending"]);
		expect(pendingJson.code).toBe(0);
		expect(pendingJson.json).toMatchObject({
			command: "pending",
			ok: true,
			count: 1,
			waiting: 1,
			requests: [
				{ id, tool: "bash", tier: "destructive", preview: "rm -f victim.txt", path: ["root"], answer: null },
			],
		});

		const approve = await runCliJson(sb, ["approve", id, "--once"]);
		expect(approve.code).toBe(0);
		expect(approve.json).toMatchObject({
			command: "approve",
			ok: true,
			request: { id, preview: "rm -f victim.txt" },
			answer: { decision: "allow", via: "cli", responder_session_id: null },
			origin: { kind: "headless" },
			audit_written: true,
		});
		const second = await runCli(sb, ["approve", id]);
		expect(second.code).toBe(1);
		expect(second.stderr).toContain(`parked request ${id} was already answered`);
		const denyAfter = await runCliJson(sb, ["deny", id]);
		expect(denyAfter.code).toBe(1);
		expect(denyAfter.json.error?.kind).toBe("already_answered");

		const listed = await runCli(sb, ["pending"]);
		expect(listed.stdout).toContain(`${id}  approved by user(cli, allow once) at`);
		expect(listed.stdout).toContain("(not used yet)");

		// The CLI's own audit line: a user decision via the CLI, about this request, with the asker's origin.
		const cliLine = auditEntries(auditLogPath(sb)).find((e) => e.event === "cli");
		expect(cliLine).toMatchObject({
			sessionId: "cli",
			requestId: id,
			origin: { kind: "headless" },
			tool: "bash",
			tier: "destructive",
			preview: "rm -f victim.txt",
			mode: "ask",
			outcome: "allow",
			source: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
		});

		// The next run tries a different rm and the identical one: only the identical one runs.
		const next = await piRun(sb, [bash("rm -f bystander.txt"), bash("rm -f victim.txt")]);
		expect(resultText(next, "rm -f victim.txt").isError).toBe(false);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		const other = resultText(next, "rm -f bystander.txt");
		expect(other.isError).toBe(true);
		expect(parkedId(other.text)).not.toBe(id);
		expect(readFileSync(sb.workPath("bystander.txt"), "utf8")).toBe("keep me");

		// The approval was used up: the same action again is parked again, under a new id.
		await sb.writeWorkFile("victim.txt", "back again");
		const third = await piRun(sb, [bash("rm -f victim.txt")]);
		expect(parkedId(third.toolResults[0]?.text ?? "")).not.toBe(id);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);

		// explain shows the whole story of the request: parked by the gate, approved via the CLI.
		const explained = await runCli(sb, ["explain", id.toLowerCase()]);
		expect(explained.code).toBe(0);
		expect(explained.stdout).toContain("2 matches");
		expect(explained.stdout).toContain("decided by: user(cli, allow once)");
		expect(explained.stdout).toContain(`decided by: unavailable(nobody answered; parked as request ${id})`);
		const used = await runCliJson(sb, ["explain", "victim.txt"]);
		const sources = entrySources(used.json);
		expect(sources).toContainEqual({
			kind: "parked_approval",
			requestId: id,
			approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
		});

		// sessions counts the CLI answer under the asker's origin, but not as a pi session.
		await waitForAuditLines(auditLogPath(sb), 5);
		const sessions = await runCliJson(sb, ["sessions"]);
		expect(sessions.json).toMatchObject({
			groups: [
				{
					kind: "headless",
					decisions: 5,
					events: { cli: 1, tool_call: 4 },
					sessions: 3,
					outcome: { allow: 2, deny: 0, pending: 3 },
					decided_by: { parked_approval: 1, unavailable: 3, user: 1 },
				},
			],
		});
	});
});

describe("deny", () => {
	it("a denied request is closed, with the reason recorded; the action stays blocked and asks again later", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const first = await piRun(sb, [bash("rm -f victim.txt")]);
		const id = parkedId(first.toolResults[0]?.text ?? "");

		const deny = await runCli(sb, ["deny", id, "--reason", "not on a Friday"]);
		expect(deny.code).toBe(0);
		expect(deny.stdout).toContain(`denied parked request ${id}`);
		expect(deny.stdout).toContain("the action stays blocked");
		await expectApprovalRefused(sb, id, `parked request ${id} was already answered`);

		const pending = await runCliJson(sb, ["pending"]);
		expect(pending.json).toMatchObject({
			waiting: 0,
			requests: [{ id, answer: { decision: "deny", via: "cli", reason: "not on a Friday" } }],
		});

		await expectParkedAnew(sb, id);

		const entries = await waitForAuditLines(auditLogPath(sb), 3);
		expect(entries.find((e) => e.event === "cli")).toMatchObject({
			requestId: id,
			outcome: "deny",
			reason: "not on a Friday",
			source: { kind: "user", via: "cli", verdict: "deny", scope: "once", reason: "not on a Friday" },
		});
	});
});

/** Moves a parked request's creation time into the past, as if it had been parked `hoursAgo` hours ago. */
function ageRequest(sb: Sandbox, id: string, hoursAgo: number): void {
	const file = path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.request.json`);
	const request = JSON.parse(readFileSync(file, "utf8"));
	request.createdAt = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
	writeFileSync(file, JSON.stringify(request), { mode: 0o600 });
}

const requestIds = (json: Envelope): string[] =>
	z
		.object({ requests: z.array(z.object({ id: z.string() })) })
		.parse(json)
		.requests.map((r) => r.id);

describe("a print run's blocks, and answering many parked requests at once", () => {
	it("pi -p says on stderr what it blocked; pending filters by session, origin and age; approve/deny --all", async () => {
		const sb = await cliSandbox();
		for (const name of ["a.txt", "b.txt", "c.txt"]) await sb.writeWorkFile(name, "keep me");

		// A headless run parks two asks and says so on stderr, naming the session to look them up by.
		const headless = await piRun(sb, [bash("rm -f a.txt"), bash("rm -f b.txt")]);
		expect(headless.code).toBe(0);
		const session = /pending --session (\S+)\)/.exec(headless.stderr)?.[1] ?? "";
		expect(headless.stderr).toContain(
			`pi-permission-hub: blocked 2 calls in this run: 2 parked for approval (pi-permission-hub pending --session ${session})`,
		);
		const [idA, idB] = headless.toolResults.map((r) => parkedId(r.text));
		// A subagent whose parent is gone (an orphan) parks its ask too, under its agent name.
		const orphan = await piRun(sb, [bash("rm -f c.txt")], {
			PI_SUBAGENT_CHILD: "1",
			PI_PERMISSION_HUB_AGENT: "reviewer",
		});
		const idC = parkedId(orphan.toolResults[0]?.text ?? "");
		expect(orphan.stderr).toContain("pi-permission-hub: blocked 1 call in this run: 1 parked for approval");
		// A run that blocks nothing says nothing.
		const quiet = await piRun(sb, [bash("ls")]);
		expect(quiet.stderr).not.toContain("pi-permission-hub:");
		ageRequest(sb, idA ?? "", 30);

		const bySession = await runCliJson(sb, ["pending", "--session", session.toUpperCase()]);
		expect(requestIds((await runCliJson(sb, ["pending", "--session", session.slice(0, 8)])).json)).toEqual(
			[],
		);
		expect(requestIds(bySession.json).sort()).toEqual([idA, idB].sort());
		const byOrigin = await runCliJson(sb, ["pending", "--origin", "subagent:reviewer"]);
		expect(requestIds(byOrigin.json)).toEqual([idC]);
		expect(byOrigin.json).toMatchObject({ requests: [{ origin: { kind: "subagent", name: "reviewer" } }] });
		expect(requestIds((await runCliJson(sb, ["pending", "--origin", "headless"])).json).sort()).toEqual(
			[idA, idB].sort(),
		);
		expect(requestIds((await runCliJson(sb, ["pending", "--older-than", "1d"])).json)).toEqual([idA]);
		expect(requestIds((await runCliJson(sb, ["pending", "--newer-than", "1h"])).json).sort()).toEqual(
			[idB, idC].sort(),
		);
		const text = await runCli(sb, ["pending", "--origin", "subagent"]);
		expect(text.stdout).toContain("1 parked request matching the filters (1 waiting for an answer)");
		expect(text.stdout).toContain("asked by  subagent reviewer, session");

		// Deny the headless ones from more than a day ago, approve the rest of that session's.
		const denied = await runCliJson(sb, ["deny", "--all", "--origin", "headless", "--older-than", "1d"]);
		expect(denied.code).toBe(0);
		expect(denied.json).toMatchObject({
			answered: [{ request: { id: idA }, answer: { decision: "deny", via: "cli" } }],
			skipped: [],
			audit_written: true,
		});
		const approved = await runCli(sb, ["approve", "--all", "--session", session]);
		expect(approved.code).toBe(0);
		expect(approved.stdout).toContain("pi-permission-hub approve --all: approved 1 parked request");
		expect(approved.stdout).toContain(idB);
		// Nothing left to select: exit 1, nothing written.
		const none = await runCliJson(sb, ["approve", "--all", "--session", session]);
		expect(none.code).toBe(1);
		expect(none.json).toMatchObject({ ok: false, error: { kind: "no_match" } });

		const next = await piRun(sb, [bash("rm -f a.txt"), bash("rm -f b.txt")]);
		expect(existsSync(sb.workPath("a.txt"))).toBe(true);
		expect(existsSync(sb.workPath("b.txt"))).toBe(false);
		expect(next.stderr).toContain("blocked 1 call in this run: 1 parked for approval");
		const cliLines = auditEntries(auditLogPath(sb)).filter((e) => e.event === "cli");
		expect(cliLines.map((e) => [e.requestId, e.outcome, e.origin?.kind])).toEqual([
			[idA, "deny", "headless"],
			[idB, "allow", "headless"],
		]);
		// The orphan's request is untouched by all of that.
		expect(requestIds((await runCliJson(sb, ["pending", "--origin", "subagent"])).json)).toEqual([idC]);
	});

	it("pending --prune removes expired requests; bad filters and id/--all mix-ups are usage errors", async () => {
		const sb = await cliSandbox();
		await sb.writeAgentFile(
			path.join("pi-permission-hub", "config.json"),
			JSON.stringify({ deferExpiryHours: 1 / 3600 }),
		);
		await sb.writeWorkFile("victim.txt", "keep me");
		const id = parkedId((await piRun(sb, [bash("rm -f victim.txt")])).toolResults[0]?.text ?? "");
		const dir = path.join(sb.agentDir, "pi-permission-hub", "parked");
		await expect
			.poll(() => runCliJson(sb, ["pending"]).then((r) => r.json.count), { timeout: 5_000 })
			.toBe(0);
		expect(readdirSync(dir)).toEqual([`${id}.request.json`]);
		const pruned = await runCliJson(sb, ["pending", "--prune"]);
		expect(pruned.json).toMatchObject({ ok: true, pruned: 1, count: 0 });
		expect(readdirSync(dir)).toEqual([]);

		for (const [args, message] of [
			[["approve"], "missing the request id"],
			[["deny", id, "--all"], "give a request id or --all, not both"],
			[["approve", id, "--origin", "headless"], "choose the requests for --all"],
			[["pending", "--origin", "robot"], "--origin must be KIND or KIND:NAME"],
			[["pending", "--origin", "headless:x"], "only subagent and ci origins carry a (non-empty) name"],
			[["pending", "--older-than", "yesterday"], "--older-than must be a number and a unit"],
			[["pending", "--session", " "], "--session needs a session id"],
		] as const) {
			const run = await runCliJson(sb, [...args]);
			expect(run.code, args.join(" ")).toBe(1);
			expect(run.json.error, args.join(" ")).toMatchObject({ kind: "usage" });
			expect(run.json.error?.message, args.join(" ")).toContain(message);
		}
	});
});

describe("asks only a human may answer", () => {
	it("pending says which parked asks are human-only, in its text and as human_only in --format json", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "delete me later");
		// A write into the project's .pi/ is a guarded path (adr/0014): only a human may answer it.
		const run = await piRun(sb, [bash("rm -f victim.txt"), bash("echo x > .pi/note.txt")]);
		const plain = parkedId(resultText(run, "rm -f victim.txt").text);
		const guarded = parkedId(resultText(run, "echo x > .pi/note.txt").text);

		const listed = await runCliJson(sb, ["pending"]);
		expect(listed.code).toBe(0);
		const requests = z
			.array(z.looseObject({ id: z.string(), human_only: z.boolean() }))
			.parse(listed.json.requests);
		expect(Object.fromEntries(requests.map((r) => [r.id, r.human_only]))).toEqual({
			[plain]: false,
			[guarded]: true,
		});
		const text = (await runCli(sb, ["pending"])).stdout;
		const blockOf = (id: string): string => text.slice(text.indexOf(`  ${id}  `)).split("\n\n")[0] ?? "";
		expect(blockOf(guarded)).toContain("only a human may answer it");
		expect(blockOf(plain)).not.toContain("only a human may answer it");
	});
});

describe("refusals", () => {
	it("unknown, malformed and expired ids are refused with exit code 1 and write nothing", async () => {
		const sb = await cliSandbox();
		await sb.writeAgentFile(
			path.join("pi-permission-hub", "config.json"),
			JSON.stringify({ deferExpiryHours: 1 / 3600 }),
		);
		await sb.writeWorkFile("victim.txt", "keep me");
		const run = await piRun(sb, [bash("rm -f victim.txt")]);
		const id = parkedId(run.toolResults[0]?.text ?? "");
		const before = await waitForAuditLines(auditLogPath(sb), 1);
		expect(before).toHaveLength(1);

		// A well-formed id nobody parked.
		const unknownId = "0".repeat(26);
		const unknown = await runCli(sb, ["approve", unknownId]);
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain(`no parked request with id ${unknownId}`);
		expect(unknown.stdout).toBe("");
		for (const bad of ["../../etc/passwd", "nope", `${id}X`]) {
			const malformed = await runCliJson(sb, ["deny", bad]);
			expect(malformed.code).toBe(1);
			expect(malformed.json).toMatchObject({ ok: false, error: { kind: "unknown_request" } });
		}

		// The parked request lives one second; wait until the clock is past its expiry.
		const expiresAt = Date.parse(
			JSON.parse(
				readFileSync(path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.request.json`), "utf8"),
			).expiresAt,
		);
		while (Date.now() <= expiresAt) await new Promise((resolve) => setTimeout(resolve, 10));
		const expired = await runCliJson(sb, ["approve", id]);
		expect(expired.code).toBe(1);
		expect(expired.json).toMatchObject({ ok: false, error: { kind: "expired" } });
		expect(expired.json.error?.message).toContain(`parked request ${id} expired at`);
		const listed = await runCliJson(sb, ["pending"]);
		expect(listed.json).toMatchObject({ count: 0, requests: [] });

		expect(auditEntries(auditLogPath(sb))).toHaveLength(1);
		expect(existsSync(path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.answer.json`))).toBe(
			false,
		);
	});
});

describe("answers this version cannot write or read", () => {
	it("an answer too large to be read back is refused and not recorded; one a newer version wrote is said to be so, never used", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const run = await piRun(sb, [bash("rm -f victim.txt")]);
		const id = parkedId(run.toolResults[0]?.text ?? "");
		const answerFile = path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.answer.json`);

		// 2000 control characters, 6 bytes each once escaped, in the answer's reason and in its source's.
		const tooLarge = await runCliJson(sb, ["approve", id, "--reason", "\u0001".repeat(2000)]);
		expect(tooLarge.code).toBe(1);
		expect(tooLarge.json).toMatchObject({ ok: false, error: { kind: "invalid" } });
		expect(tooLarge.json.error?.message).toContain(`the answer to parked request ${id} was not recorded`);
		expect(tooLarge.json.error?.message).toContain("give a shorter --reason");
		expect(existsSync(answerFile)).toBe(false);
		expect((await runCliJson(sb, ["pending"])).json).toMatchObject({ count: 1, waiting: 1 });

		// A newer version answered it, in a format this one cannot read.
		writeFileSync(answerFile, JSON.stringify({ format: 3, requestId: id, outcome: { allow: true } }));
		const listed = await runCli(sb, ["pending"]);
		expect(listed.stdout).toContain("1 parked request (0 waiting for an answer)");
		expect(listed.stdout).toContain(
			`${id}  answered by a newer version of pi-permission-hub (answer format 3; this version reads format 2): this version cannot read the answer, and never takes it as an approval`,
		);
		expect(listed.stdout).not.toContain(`pi-permission-hub approve ${id}`);
		expect((await runCliJson(sb, ["pending"])).json).toMatchObject({
			waiting: 0,
			requests: [{ id, answer: { decision: null, format: 3 } }],
		});
		await expectApprovalRefused(sb, id, `parked request ${id} was answered by a newer version`);
		expect((await runCliJson(sb, ["deny", "--all"])).json).toMatchObject({ error: { kind: "no_match" } });
		await expectParkedAnew(sb, id);
	});
});

describe("an answer file for another action", () => {
	it("pending and approve both say it is ignored; it is never waiting, never answered again, never an approval", async () => {
		const sb = await cliSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		const run = await piRun(sb, [bash("rm -f victim.txt")]);
		const id = parkedId(run.toolResults[0]?.text ?? "");
		const answerFile = path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.answer.json`);
		// An approval naming this request but another action (planted, or copied from another request).
		writeFileSync(
			answerFile,
			JSON.stringify({
				format: 2,
				requestId: id,
				actionHash: "e".repeat(64),
				decision: "allow",
				source: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
				answeredAt: new Date().toISOString(),
				responderSessionId: null,
			}),
		);
		const said = "has an answer for another action: ignored, never taken as an approval";

		const listed = await runCli(sb, ["pending"]);
		expect(listed.stdout).toContain("1 parked request (0 waiting for an answer)");
		expect(listed.stdout).toContain(`${id}  ${said}`);
		expect(listed.stdout).not.toContain(`pi-permission-hub approve ${id}`);
		expect((await runCliJson(sb, ["pending"])).json).toMatchObject({
			waiting: 0,
			requests: [{ id, answer: { decision: null, ignored: expect.stringContaining(said) } }],
		});
		await expectApprovalRefused(sb, id, `parked request ${id} ${said}`);
		await expectParkedAnew(sb, id);
	});
});

describe("an unsafe parked directory", () => {
	it("is refused (exit 2): requests others could have planted are neither listed nor answered", async () => {
		const sb = await cliSandbox();
		const dir = path.join(sb.agentDir, "pi-permission-hub", "parked");
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		chmodSync(path.join(sb.agentDir, "pi-permission-hub"), 0o700);
		chmodSync(dir, 0o777);
		for (const args of [["pending"], ["approve", "0".repeat(26)], ["deny", "0".repeat(26)]]) {
			const { code, json } = await runCliJson(sb, args);
			expect(code).toBe(2);
			expect(json).toMatchObject({ ok: false, error: { kind: "io" } });
			expect(json.error?.message).toContain(
				`refusing to use the parked requests: ${dir} is writable by group or others`,
			);
		}
	});
});

/** The DecisionSource of every match in an `explain --format json` envelope. */
function entrySources(json: Envelope): unknown[] {
	const matches = z.object({ matches: z.array(z.object({ entry: z.object({ source: z.unknown() }) })) });
	return matches.parse(json).matches.map((m) => m.entry.source);
}
