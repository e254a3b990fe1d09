/**
 * The extension runs on the copy of pi that loaded it. Its entry imports pi's packages (the bash tool for the
 * sandbox, pi-tui for the dialog); pi hands a transformed entry its own in-memory modules, but imports an
 * ES-module entry natively, and then those imports load pi's unbundled files a second time: about a second of
 * CPU and 65 MiB for every pi process, every subagent included (adr/0012). Every module Node itself resolves is
 * traced here, in a run whose bash call goes through the sandboxed bash tool built from those imports.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { auditEntries } from "../e2e/gate-support.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";

const MODULE_TRACE = path.join(REPO_ROOT, "bench", "module-trace.ts");
/** Files of pi's packages outside the bundle pi's CLI runs from. */
const SECOND_PI = /\/node_modules\/@earendil-works\/(?!pi-coding-agent\/dist\/bundle\/)[^/]+\//;

const sandboxes: Sandbox[] = [];
afterEach(async () => {
	for (const sb of sandboxes.splice(0)) await sb.cleanup();
});

function tracedUrls(file: string): string[] {
	return readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((line) => {
			const record: unknown = JSON.parse(line);
			const url = typeof record === "object" && record !== null ? Reflect.get(record, "url") : undefined;
			return typeof url === "string" ? url : "";
		});
}

describe("one copy of pi per process", () => {
	it("a gated run whose bash call is sandboxed loads none of pi's files a second time", async () => {
		const sb = await createSandbox();
		sandboxes.push(sb);
		await writeScript(sb, {
			conversations: [
				{ turns: [{ calls: [{ tool: "bash", input: { command: "echo hi" } }] }, { echo: true }] },
			],
		});
		const trace = path.join(sb.root, "modules.jsonl");

		const run = await runPrint({
			sandbox: sb,
			prompt: "say hi",
			extensions: [EXTENSION_ENTRY],
			env: { NODE_OPTIONS: `--import=${MODULE_TRACE}`, PPH_MODULE_TRACE: trace },
		});

		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toContain('"text":"hi\\n","isError":false');
		const [entry] = await auditEntries(sb, 1);
		expect([entry?.outcome, entry?.sandbox]).toEqual(["allow", "read-only"]);
		const urls = tracedUrls(trace);
		// The trace works: it saw pi's own bundle and the chunks the gate imports (Node loads the gate natively).
		expect(urls.some((url) => url.includes("/pi-coding-agent/dist/bundle/"))).toBe(true);
		expect(urls.some((url) => url.includes("/dist/extension/") && url.includes("/chunks/"))).toBe(true);
		expect(urls.filter((url) => SECOND_PI.test(url))).toEqual([]);
	});
});
