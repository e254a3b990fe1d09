/** Runs a bench script in a fresh Node process and parses the JSON it prints on its last stdout line. */
import { runCommand } from "../test/harness/run-command.ts";

export interface NodeRun {
	readonly json: unknown;
	readonly wallMs: number;
}

export async function runNodeScript(
	script: string,
	args: readonly string[],
	options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<NodeRun> {
	const started = performance.now();
	const run = await runCommand(process.execPath, [script, ...args], {
		cwd: process.cwd(),
		env: options.env ?? process.env,
		timeoutMs: options.timeoutMs ?? 60_000,
	});
	const wallMs = performance.now() - started;
	if (run.code !== 0) {
		throw new Error(`${script} ${args.join(" ")} exited with ${run.code}\n${run.stderr.slice(-2000)}`);
	}
	const last = run.stdout.trim().split("\n").at(-1) ?? "";
	try {
		return { json: JSON.parse(last), wallMs };
	} catch {
		throw new Error(`${script} printed no JSON: ${last.slice(0, 200)}\n${run.stderr.slice(-2000)}`);
	}
}

/** The number at `key` of a probe's JSON output (NaN when absent), so a broken probe shows as a failed figure. */
export function numberAt(json: unknown, key: string): number {
	if (typeof json !== "object" || json === null) return Number.NaN;
	const value: unknown = Reflect.get(json, key);
	return typeof value === "number" ? value : Number.NaN;
}
