/**
 * Running the demo (`node demo/run.ts …`) as a process, the way `npm run demo` does, in a scrubbed environment,
 * and reading back the throwaway folder it leaves.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import { node22Binary, REPO_ROOT } from "../harness/paths.ts";
import { type CommandResult, runCommand } from "../harness/run-command.ts";
import { inheritedEnvironment } from "../harness/sandbox.ts";

export const DEMO_SCRIPT = path.join(REPO_ROOT, "demo", "run.ts");

/** The environment a developer's shell would give the demo, minus anything from an outer pi session or CI. */
export function demoEnvironment(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
	const base = inheritedEnvironment(process.env);
	const nodeDir = path.dirname(node22Binary());
	return { ...base, PATH: base.PATH ? `${nodeDir}${path.delimiter}${base.PATH}` : nodeDir, ...extra };
}

export function runDemo(args: readonly string[], timeoutMs = 120_000): Promise<CommandResult> {
	return runCommand(node22Binary(), [DEMO_SCRIPT, ...args], {
		cwd: REPO_ROOT,
		env: demoEnvironment(),
		timeoutMs,
	});
}

/** A temp parent for `--keep <parent>/demo`, removed by `removeScratch()`. */
export async function scratchDir(): Promise<string> {
	return mkdtemp(path.join(os.tmpdir(), "pph-demo-test-"));
}

export async function removeScratch(dir: string | undefined): Promise<void> {
	if (dir !== undefined) await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}

export function demoAudit(demoRoot: string): AuditEntry[] {
	const file = path.join(demoRoot, "agent", "pi-permission-hub", "audit.jsonl");
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line.trim() !== "")
		.map((line) => {
			const entry = parseAuditLine(line);
			if (entry === null) throw new Error(`parseAuditLine rejected a demo audit line: ${line}`);
			return entry;
		});
}
