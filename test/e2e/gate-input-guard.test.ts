/**
 * What runs is what the gate decided. Another extension's `tool_call` handler
 * (test/fixtures/input-mutator-extension.ts) tries to rewrite an approved bash command; the gate freezes the input
 * it decides on, so the rewrite cannot take effect. And pi itself must still be able to run every built-in tool
 * with a frozen input — if it wrote to the input after `tool_call`, freezing would break normal calls.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	cleanupSandboxes,
	entryFor,
	gateSandbox,
	jsonlFile,
	MUTATOR_FIXTURE,
	resultOf,
	scriptOf,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(cleanupSandboxes);

/** pi's message when the ripgrep or fd binary is neither installed nor downloadable (PI_OFFLINE). */
const MISSING_BINARY = /^(ripgrep \(rg\)|fd) is not available and could not be downloaded$/;

function mutatorLog(sb: Sandbox): string {
	return path.join(sb.root, "mutator.jsonl");
}

function run(sb: Sandbox, extensions: readonly string[], env: Record<string, string> = {}) {
	return runPrint({
		sandbox: sb,
		prompt: "do it",
		extensions,
		mode: "json",
		env: { PPH_MUTATOR_LOG: mutatorLog(sb), ...env },
	});
}

/** `touch original.txt` is allowed by a rule, so it runs without anyone being asked. */
async function approvedTouchSandbox(): Promise<Sandbox> {
	const sb = await gateSandbox();
	await writeUserConfig(sb, { rules: [{ surface: "command", pattern: "touch *", action: "allow" }] });
	await writeScript(sb, scriptOf([bash("touch original.txt"), bash("touch untouched.txt")]));
	return sb;
}

describe("a handler after the gate rewrites an approved command", () => {
	it("the rewrite throws, pi blocks the call, and neither the original nor the rewritten command runs", async () => {
		const sb = await approvedTouchSandbox();

		const result = await run(sb, [EXTENSION_ENTRY, MUTATOR_FIXTURE]);

		expect(existsSync(sb.workPath("mutated.txt"))).toBe(false);
		expect(existsSync(sb.workPath("original.txt"))).toBe(false);
		// A sibling call the mutator leaves alone is unaffected.
		expect(existsSync(sb.workPath("untouched.txt"))).toBe(true);
		// pi turns the handler's TypeError into the call's error result: that is what the model sees.
		const blocked = resultOf(result.events, result.toolResults, "touch original.txt");
		expect(blocked.isError).toBe(true);
		expect(blocked.text).toMatch(/read.only property 'command'/);
		expect(jsonlFile(mutatorLog(sb))).toMatchObject([{ before: "touch original.txt", result: "threw" }]);
		// The gate decided (allow) and recorded that; the block came after it, from pi.
		const entries = await auditEntries(sb, 2);
		expect(entryFor(entries, "touch original.txt")).toMatchObject({ outcome: "allow" });
	});

	it("a handler that swallows the error cannot change the command either: the approved one runs", async () => {
		const sb = await approvedTouchSandbox();

		const result = await run(sb, [EXTENSION_ENTRY, MUTATOR_FIXTURE], { PPH_MUTATOR_SWALLOW: "1" });

		expect(resultOf(result.events, result.toolResults, "touch original.txt").isError).toBe(false);
		expect(existsSync(sb.workPath("original.txt"))).toBe(true);
		expect(existsSync(sb.workPath("mutated.txt"))).toBe(false);
		expect(jsonlFile(mutatorLog(sb))).toMatchObject([{ result: "threw" }]);
	});
});

describe("a handler before the gate rewrites a command", () => {
	it("the gate decides on the rewritten command, so a dangerous rewrite is still caught", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me");
		await writeUserConfig(sb, { rules: [{ surface: "command", pattern: "touch *", action: "allow" }] });
		await writeScript(sb, scriptOf([bash("touch original.txt")]));

		const result = await run(sb, [MUTATOR_FIXTURE, EXTENSION_ENTRY], {
			PPH_MUTATED_COMMAND: "rm -f victim.txt",
		});

		expect(jsonlFile(mutatorLog(sb))).toMatchObject([{ result: "rewritten" }]);
		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me");
		expect(existsSync(sb.workPath("original.txt"))).toBe(false);
		expect(result.toolResults).toMatchObject([{ isError: true }]);
		expect(result.toolResults[0]?.text).toContain("rm -f victim.txt");
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({ preview: "rm -f victim.txt", tier: "destructive" });
		expect(entry?.outcome).not.toBe("allow");
	});
});

describe("pi runs every built-in tool with a frozen input", () => {
	it("write, edit, read, ls, grep, find and bash all work after the gate allowed them", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("src/keep.txt", "needle in a file\n");
		await writeUserConfig(sb, { rules: [{ surface: "write", pattern: "**", action: "allow" }] });
		await writeScript(
			sb,
			scriptOf(
				[{ tool: "write", input: { path: "notes.txt", content: "alpha\nbeta\n" } }],
				[{ tool: "edit", input: { path: "notes.txt", edits: [{ oldText: "beta", newText: "gamma" }] } }],
				// Legacy single-edit shape: pi's prepareArguments rewrites it before tool_call (on its own copy).
				[{ tool: "edit", input: { path: "notes.txt", oldText: "alpha", newText: "delta" } }],
				[
					{ tool: "read", input: { path: "notes.txt", offset: 1, limit: 10 } },
					{ tool: "ls", input: { path: "src", limit: 10 } },
					{ tool: "grep", input: { pattern: "needle", path: "src", ignoreCase: true, limit: 5 } },
					{ tool: "find", input: { pattern: "*.txt", path: "src", limit: 5 } },
					bash("cat notes.txt"),
				],
			),
		);

		const result = await runPrint({
			sandbox: sb,
			prompt: "do it",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
			args: ["--tools", "+ls,+grep,+find"],
		});

		const outcomes = result.toolResults.map((r) => `${r.toolName}:${r.isError ? "error" : "ok"}`);
		expect(outcomes.slice(0, 3)).toEqual(["write:ok", "edit:ok", "edit:ok"]);
		expect(readFileSync(sb.workPath("notes.txt"), "utf8")).toBe("delta\ngamma\n");
		// The last batch runs in parallel and finishes in any order.
		const byTool = (tool: string) => {
			const found = result.toolResults.find((r) => r.toolName === tool);
			if (found === undefined) throw new Error(`no ${tool} result`);
			return found;
		};
		expect(byTool("read")).toMatchObject({ isError: false });
		expect(byTool("read").text).toContain("delta");
		expect(byTool("ls")).toMatchObject({ isError: false });
		expect(byTool("ls").text).toContain("keep.txt");
		expect(byTool("bash")).toMatchObject({ isError: false, text: "delta\ngamma\n" });
		// grep and find need ripgrep / fd, which pi cannot download offline. Without the binary the tool fails
		// before it runs (so this machine cannot show that one works frozen) — but never with a write error.
		for (const [tool, expected] of [
			["grep", "needle in a file"],
			["find", "keep.txt"],
		] as const) {
			const { isError, text } = byTool(tool);
			if (isError) expect(text).toMatch(MISSING_BINARY);
			else expect(text).toContain(expected);
		}
		await auditEntries(sb, 8);
	});
});
