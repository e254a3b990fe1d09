/** Runs a bench script in a fresh Node process and parses the JSON it prints on its last stdout line. */
import { spawn } from "node:child_process";

export interface NodeRun {
	readonly json: unknown;
	readonly wallMs: number;
}

export function runNodeScript(
	script: string,
	args: readonly string[],
	options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<NodeRun> {
	const started = performance.now();
	const child = spawn(process.execPath, [script, ...args], {
		stdio: ["ignore", "pipe", "pipe"],
		env: options.env ?? process.env,
	});
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
		stdout += chunk;
	});
	child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
		stderr += chunk;
	});
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`${script} ${args.join(" ")} timed out\n${stderr.slice(-2000)}`));
		}, options.timeoutMs ?? 60_000);
		child.once("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.once("close", (code) => {
			clearTimeout(timer);
			const wallMs = performance.now() - started;
			const last = stdout.trim().split("\n").at(-1) ?? "";
			if (code !== 0) {
				reject(new Error(`${script} ${args.join(" ")} exited with ${code}\n${stderr.slice(-2000)}`));
				return;
			}
			try {
				resolve({ json: JSON.parse(last), wallMs });
			} catch {
				reject(new Error(`${script} printed no JSON: ${last.slice(0, 200)}\n${stderr.slice(-2000)}`));
			}
		});
	});
}

/** The number at `key` of a probe's JSON output (NaN when absent), so a broken probe shows as a failed figure. */
export function numberAt(json: unknown, key: string): number {
	if (typeof json !== "object" || json === null) return Number.NaN;
	const value: unknown = Reflect.get(json, key);
	return typeof value === "number" ? value : Number.NaN;
}
