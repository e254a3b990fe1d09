/**
 * Runs one command to completion (npm, pi, the installed CLI) and keeps its output, behind a deadline that kills
 * it and fails with what it printed so far.
 */
import { spawn } from "node:child_process";

export interface CommandResult {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

export function runCommand(
	command: string,
	args: readonly string[],
	options: {
		readonly cwd: string;
		readonly env: NodeJS.ProcessEnv;
		readonly timeoutMs: number;
		/** Written to the command's standard input, which is then closed (at once when there is none). */
		readonly stdin?: string;
	},
): Promise<CommandResult> {
	const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "pipe" });
	// A command that exits without reading its input (git does) closes the pipe first: EPIPE here is no failure
	// of the command, and unhandled it would be an uncaught exception in the test run.
	child.stdin.on("error", () => undefined);
	child.stdin.end(options.stdin ?? "");
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
			reject(
				new Error(
					`${command} ${args.join(" ")} did not finish in ${options.timeoutMs} ms\n` +
						`stdout:\n${stdout.slice(-2_000)}\nstderr:\n${stderr.slice(-2_000)}`,
				),
			);
		}, options.timeoutMs);
		child.once("error", (error) => {
			clearTimeout(timer);
			reject(new Error(`could not start ${command}: ${error.message}`));
		});
		child.once("close", (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

/** A failure message with everything the command printed. */
export function describeResult(what: string, result: CommandResult): string {
	return `${what} exited with ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}
