/**
 * The parked-request loop end to end: a real headless pi run parks an ask ("pending approval <id>"), the built
 * CLI lists and answers it, and the next real pi run shows what the answer did to files on disk.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
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
		expect(pending.stdout).toContain("asked by  root");
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
		expect(listed.stdout).toContain(`${id}  approved via cli at`);
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
		expect(sources).toContainEqual({ kind: "parked_approval", requestId: id, approvedVia: "cli" });

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
		const again = await runCliJson(sb, ["approve", id]);
		expect(again.code).toBe(1);
		expect(again.json).toMatchObject({ ok: false, error: { kind: "already_answered" } });

		const pending = await runCliJson(sb, ["pending"]);
		expect(pending.json).toMatchObject({
			waiting: 0,
			requests: [{ id, answer: { decision: "deny", via: "cli", reason: "not on a Friday" } }],
		});

		const next = await piRun(sb, [bash("rm -f victim.txt")]);
		const [result] = next.toolResults;
		expect(result?.isError).toBe(true);
		expect(parkedId(result?.text ?? "")).not.toBe(id);
		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");

		const entries = await waitForAuditLines(auditLogPath(sb), 3);
		expect(entries.find((e) => e.event === "cli")).toMatchObject({
			requestId: id,
			outcome: "deny",
			reason: "not on a Friday",
			source: { kind: "user", via: "cli", verdict: "deny", scope: "once", reason: "not on a Friday" },
		});
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

		// The parked request lives one second; wait it out.
		const expiresAt = Date.parse(
			JSON.parse(
				readFileSync(path.join(sb.agentDir, "pi-permission-hub", "parked", `${id}.request.json`), "utf8"),
			).expiresAt,
		);
		await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
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
