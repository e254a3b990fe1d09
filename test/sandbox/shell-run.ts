/**
 * Running a wrapped command line as pi's bash tool runs it (`/bin/bash -c <line>`), asynchronously: the servers
 * a sandbox test talks to live in the test's own process and must be able to answer while it runs.
 */
import { spawn } from "node:child_process";

export interface ShellRun {
	readonly code: number | null;
	readonly out: string;
	readonly err: string;
}

/** Run `line`; `started` gets the shell's pid (the outer shell execs bubblewrap, so it is bubblewrap's). */
export async function runShell(
	line: string,
	env: NodeJS.ProcessEnv = process.env,
	started: (pid: number) => void = () => {},
): Promise<ShellRun> {
	const child = spawn("/bin/bash", ["-c", line], { env });
	if (child.pid !== undefined) started(child.pid);
	let out = "";
	let err = "";
	child.stdout.on("data", (chunk) => {
		out += chunk;
	});
	child.stderr.on("data", (chunk) => {
		err += chunk;
	});
	const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
	return { code, out, err };
}
