/**
 * An answer to a parked ask that loses a race: the ask was answered elsewhere (`pi-permission-hub deny`) while a
 * root's dialog showed it, or it ran out while a link decided it. The parked store refuses the late answer, and
 * the audit line says so: refused and why, never an `allow` that is in force nowhere.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import { REVIEW_NOW } from "../../src/gate/forwarded-asks.ts";
import { parkedId, runCli } from "../cli/cli-support.ts";
import type { DialogRequest } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
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

/** A print run tries `rm -f victim.txt`: parked, nobody to answer it. Returns the request id and its expiry. */
async function parkedRm(sb: Sandbox): Promise<{ id: string; expiresAt: number }> {
	await sb.writeWorkFile("victim.txt", "keep me");
	await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
	const run = await runPrint({
		sandbox: sb,
		prompt: "clean up",
		extensions: [EXTENSION_ENTRY],
		mode: "json",
	});
	const id = parkedId(run.toolResults[0]?.text ?? "");
	await writeScript(sb, { conversations: [{ turns: [{ text: "nothing to do" }] }] });
	const request = JSON.parse(readFileSync(path.join(parkedDir(sb), `${id}.request.json`), "utf8"));
	return { id, expiresAt: Date.parse(request.expiresAt) };
}

function parkedDir(sb: Sandbox): string {
	return path.join(sb.agentDir, "pi-permission-hub", "parked");
}

const isSummary = (request: DialogRequest): boolean => request.title.includes("parked in earlier runs");
const isParkedAsk = (request: DialogRequest): boolean =>
	request.title.startsWith("Parked in an earlier run:");

function audited(sb: Sandbox, event: AuditEntry["event"], id: string): AuditEntry[] {
	return auditLines(sb)
		.map((line) => parseAuditLine(line))
		.filter((e): e is AuditEntry => e?.event === event && e.requestId === id);
}

/** The next attempt at the same action is parked anew: nothing the refused answer said lets it run. */
async function stillBlocked(sb: Sandbox, id: string): Promise<void> {
	await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
	const again = await runPrint({ sandbox: sb, prompt: "again", extensions: [EXTENSION_ENTRY], mode: "json" });
	expect(parkedId(again.toolResults[0]?.text ?? "")).not.toBe(id);
	expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
}

describe("an answer to a parked ask that loses a race", () => {
	it("denied from the CLI while the root's dialog showed it: the dialog's allow is refused, and audited so", async () => {
		const sb = await gateSandbox();
		const { id } = await parkedRm(sb);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: async (request) => {
				if (isSummary(request)) return { select: REVIEW_NOW };
				if (!isParkedAsk(request)) throw new Error(`unexpected dialog: ${request.title}`);
				// The race, made certain: the CLI answers first, while this dialog is open; then the human allows.
				const cli = await runCli(sb, ["deny", id, "--reason", "closed from the CLI"]);
				if (cli.code !== 0) throw new Error(`deny failed: ${cli.stderr}`);
				return { select: "Allow once" };
			},
		});
		await expect.poll(() => audited(sb, "forwarded_ask", id).length, { timeout: 15_000 }).toBe(1);
		const [line] = audited(sb, "forwarded_ask", id);
		expect(line).toMatchObject({
			outcome: "deny",
			answerRefused: "answered",
			source: { kind: "user", verdict: "allow" },
			reason: `parked request ${id} was already answered: the first answer stands, and this one was not recorded`,
		});
		expect(audited(sb, "cli", id)).toMatchObject([{ outcome: "deny", source: { kind: "user", via: "cli" } }]);
		await expect
			.poll(() =>
				rpc.notifications.find((n) => n.message.includes(`parked request ${id} was already answered`)),
			)
			.toMatchObject({ notifyType: "warning" });
		// The CLI's denial is the answer on disk.
		const answer = JSON.parse(readFileSync(path.join(parkedDir(sb), `${id}.answer.json`), "utf8"));
		expect(answer).toMatchObject({ decision: "deny", reason: "closed from the CLI" });
		await rpc.close();
		await stillBlocked(sb, id);
	});

	it("expired while a link decided it: the link's late allow is refused, and audited so", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { deferExpiryHours: 25 / 3600 });
		const { id, expiresAt } = await parkedRm(sb);
		await writeUserConfig(sb, { deferExpiryHours: 25 / 3600, authorizerChain: ["fixture-allow-slowly"] });
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY, LINKS_FIXTURE],
			dialog: async (request) => {
				if (!isSummary(request)) throw new Error(`unexpected dialog: ${request.title}`);
				expect(Date.now()).toBeLessThan(expiresAt - 2000);
				// Review it 1.5 s before it expires: the link, 3 s slow, answers after it has.
				await new Promise((resolve) => setTimeout(resolve, expiresAt - 1500 - Date.now()));
				return { select: REVIEW_NOW };
			},
		});
		await expect
			.poll(() => audited(sb, "forwarded_ask", id).length, { timeout: 40_000, interval: 200 })
			.toBe(1);
		const [line] = audited(sb, "forwarded_ask", id);
		expect(Date.parse(line?.time ?? "")).toBeGreaterThan(expiresAt);
		expect(line).toMatchObject({
			outcome: "deny",
			answerRefused: "expired",
			source: { kind: "authorizer", link: "fixture-allow-slowly", verdict: "allow" },
		});
		expect(line?.reason).toMatch(
			new RegExp(
				`^parked request ${id} expired at .*, before this answer was recorded: it counts for nothing`,
			),
		);
		expect(rpc.notifications.some((n) => n.message.includes(`parked request ${id} expired at`))).toBe(true);
		expect(existsSync(path.join(parkedDir(sb), `${id}.answer.json`))).toBe(false);
		await rpc.close();
		await stillBlocked(sb, id);
	}, 90_000);
});
