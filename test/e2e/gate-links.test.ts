/**
 * Authorizer links from another extension (test/fixtures/authorizer-links-extension.ts), enabled and ordered by
 * the operator's `authorizerChain`: they decide an ask before anyone is asked, and whatever they do wrong
 * (throw, meddle, be missing) never opens the gate.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	gateSandbox,
	jsonlFile,
	LINKS_FIXTURE,
	scriptOf,
	stopRpcAndCleanUp,
	USER_DENIAL,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

const EXTENSIONS = [EXTENSION_ENTRY, LINKS_FIXTURE];

function linkLog(sb: Sandbox): string {
	return path.join(sb.root, "links.jsonl");
}

/** A sandbox with a victim file, the given chain, and a model that wants to delete the victim. */
async function chainSandbox(authorizerChain: readonly string[]): Promise<Sandbox> {
	const sb = await gateSandbox();
	await sb.writeWorkFile("victim.txt", "keep me");
	await writeUserConfig(sb, { authorizerChain });
	await writeScript(sb, scriptOf([bash("rm -f victim.txt")]));
	return sb;
}

function runHeadless(sb: Sandbox) {
	return runPrint({
		sandbox: sb,
		prompt: "delete it",
		extensions: EXTENSIONS,
		mode: "json",
		env: { PPH_LINK_LOG: linkLog(sb) },
	});
}

describe("links that decide", () => {
	it("an allowing link lets the call run with nobody asked, recorded as the authorizer's decision", async () => {
		const sb = await chainSandbox(["fixture-allow"]);

		const run = await runHeadless(sb);

		expect(run.toolResults).toMatchObject([{ isError: false }]);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		expect(jsonlFile(linkLog(sb))).toEqual([
			{
				link: "fixture-allow",
				tool: "bash",
				tier: "destructive",
				preview: "rm -f victim.txt",
				why: "the destructive tier asks (built-in default) for: rm -f victim.txt",
				forwarded: false,
			},
		]);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			mode: "ask",
			outcome: "allow",
			source: { kind: "authorizer", link: "fixture-allow", verdict: "allow", reason: "fixture says yes" },
			chain: [{ link: "fixture-allow", result: "allow", reason: "fixture says yes" }],
		});
	});

	it("a link registered over pi.events works like an imported one", async () => {
		const sb = await chainSandbox(["fixture-evented"]);

		const run = await runHeadless(sb);

		expect(run.toolResults).toMatchObject([{ isError: false }]);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.source).toMatchObject({ kind: "authorizer", link: "fixture-evented", verdict: "allow" });
	});

	it("a denying link blocks the call with a reason naming it; links after it are not consulted", async () => {
		const sb = await chainSandbox(["fixture-defer", "fixture-deny", "fixture-allow"]);

		const run = await runHeadless(sb);

		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
		const text = run.toolResults[0]?.text ?? "";
		expect(text).toContain(
			'the authorizer "fixture-deny" denied this bash call (rm -f victim.txt): fixture says no',
		);
		expect(text).not.toMatch(USER_DENIAL);
		expect(jsonlFile(linkLog(sb)).map((l) => l.link)).toEqual(["fixture-defer", "fixture-deny"]);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			outcome: "deny",
			source: { kind: "authorizer", link: "fixture-deny", verdict: "deny", reason: "fixture says no" },
			chain: [
				{ link: "fixture-defer", result: "defer" },
				{ link: "fixture-deny", result: "deny" },
			],
		});
	});
});

describe("links that decide nothing", () => {
	it("defer and throw fall through to the dialog; the throw is recorded as an error step", async () => {
		const sb = await chainSandbox(["fixture-defer", "fixture-throw"]);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: EXTENSIONS,
			env: { PPH_LINK_LOG: linkLog(sb) },
			dialog: pickOption((o) => o === "Deny"),
		});

		const run = await rpc.prompt("delete it");

		expect(run.dialogs).toHaveLength(1);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.toolResults[0]?.text).toMatch(/^The user denied/);
		expect(jsonlFile(linkLog(sb)).map((l) => l.link)).toEqual(["fixture-defer", "fixture-throw"]);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			source: { kind: "user", verdict: "deny" },
			chain: [
				{ link: "fixture-defer", result: "defer" },
				{ link: "fixture-throw", result: "error", reason: "fixture link exploded" },
			],
		});
	});

	it("a throwing link with no UI behind it leaves the call blocked as unanswered", async () => {
		const sb = await chainSandbox(["fixture-throw"]);

		const run = await runHeadless(sb);

		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		expect(run.toolResults).toMatchObject([{ isError: true }]);
		expect(run.toolResults[0]?.text).not.toMatch(USER_DENIAL);
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.outcome).not.toBe("allow");
		expect(entry?.chain).toMatchObject([{ link: "fixture-throw", result: "error" }]);
	});

	it("an unknown link name is reported (warning, status) and skipped, not fatal", async () => {
		const sb = await chainSandbox(["no-such-link", "fixture-allow"]);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: EXTENSIONS,
			env: { PPH_LINK_LOG: linkLog(sb) },
			dialog: scripted([]),
		});

		const run = await rpc.prompt("delete it");

		expect(run.dialogs).toHaveLength(0);
		expect(existsSync(sb.workPath("victim.txt"))).toBe(false);
		const warnings = rpc.notifications.filter((n) => n.notifyType === "warning");
		expect(warnings).toHaveLength(1);
		expect(warnings[0]?.message).toContain('authorizerChain names "no-such-link"');
		expect(rpc.statuses.get("pi-permission-hub")).toContain('link "no-such-link" not registered');
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			source: { kind: "authorizer", link: "fixture-allow" },
			chain: [
				{ link: "no-such-link", result: "unregistered" },
				{ link: "fixture-allow", result: "allow" },
			],
		});
	});
});

describe("links cannot change what they are asked about", () => {
	it("a link that rewrites the request's input and parts before deferring changes nothing that runs", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { authorizerChain: ["fixture-meddler"] });
		await writeScript(
			sb,
			scriptOf([{ tool: "write", input: { path: "orig.txt", content: "original content\n" } }]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: EXTENSIONS,
			env: { PPH_LINK_LOG: linkLog(sb) },
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("write it");

		expect(run.dialogs).toHaveLength(1);
		const [dialog] = run.dialogs;
		if (dialog?.request.method !== "select") throw new Error("expected a select dialog");
		expect(dialog.request.title).toMatch(/^Permission needed: write\n/);
		expect(dialog.request.title).toContain("orig.txt");
		expect(readFileSync(sb.workPath("orig.txt"), "utf8")).toBe("original content\n");
		expect(existsSync(sb.workPath("meddled.txt"))).toBe(false);
		const [call] = jsonlFile(linkLog(sb));
		expect(call?.attempts).toEqual({
			"input.content": "refused",
			"input.path": "refused",
			"parts[0].tier": "refused",
		});
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ tool: "write", tier: "write", outcome: "allow", source: { kind: "user" } });
	});
});
