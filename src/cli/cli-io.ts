import os from "node:os";
import { createInterface } from "node:readline";

/** Everything the CLI takes from its process, so a command never reaches for globals directly. */
export interface CliIo {
	readonly stdout: (text: string) => void;
	readonly stderr: (text: string) => void;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly homeDir: string;
	readonly cwd: string;
	readonly now: () => number;
	/** Standard input, one line at a time as it arrives (`check --stdin` answers each before the next comes). */
	readonly stdinLines: () => AsyncIterable<string>;
}

export function processIo(): CliIo {
	return {
		stdout: (text) => process.stdout.write(text),
		stderr: (text) => process.stderr.write(text),
		env: process.env,
		homeDir: os.homedir(),
		cwd: process.cwd(),
		now: () => Date.now(),
		stdinLines: () => createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }),
	};
}
