/**
 * A command of the `pi-permission-hub` CLI: what it is (its spec), what it is given, what it gives back, and how
 * it fails. Commands take everything from their process through `CliIo`, never from globals.
 */
import os from "node:os";
import { createInterface } from "node:readline";
import type { ParseArgsOptionsConfig } from "node:util";

/** Exit codes of the CLI: 0 done, 1 usage / validation / no match / refused, 2 input or output failed. */
export type ExitCode = 0 | 1 | 2;

/** Why a command did not do its job; the kind is stable (JSON `error.kind`), the message is for people. */
export type FailureKind =
	| "usage"
	| "no_match"
	| "unknown_request"
	| "expired"
	| "already_answered"
	| "exists"
	| "invalid"
	/** A config the command needs is invalid: the gate would deny everything, and so the answer is not the policy's. */
	| "config_invalid"
	| "io";

const EXIT_CODES: Readonly<Record<FailureKind, ExitCode>> = {
	usage: 1,
	no_match: 1,
	unknown_request: 1,
	expired: 1,
	already_answered: 1,
	exists: 1,
	invalid: 1,
	config_invalid: 2,
	io: 2,
};

export function exitCodeOf(kind: FailureKind): ExitCode {
	return EXIT_CODES[kind];
}

/** Thrown by a command that cannot go on; the runner turns it into a message (or JSON envelope) and exit code. */
export class CliError extends Error {
	override readonly name = "CliError";
	readonly kind: FailureKind;

	constructor(kind: FailureKind, message: string) {
		super(message);
		this.kind = kind;
	}
}

export function usageError(message: string): CliError {
	return new CliError("usage", message);
}

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

export type OutputFormat = "text" | "json";

type RawValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** Typed reads of `util.parseArgs` results (its value type is loose when the option set is built at run time). */
export class OptionValues {
	private readonly values: RawValues;

	constructor(values: RawValues) {
		this.values = values;
	}

	string(name: string): string | undefined {
		const value = this.values[name];
		if (value === undefined) return undefined;
		if (typeof value !== "string") throw usageError(`--${name} needs a value`);
		return value;
	}

	flag(name: string): boolean {
		return this.values[name] === true;
	}
}

/** What a command gets: resolved global settings, its own options and its positional arguments. */
export interface CommandInput {
	readonly io: CliIo;
	/** pi's agent dir: `--agent-dir`, else `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
	readonly agentDir: string;
	/** `--log`, resolved; undefined means the default log and its rotated generations. */
	readonly log: string | undefined;
	readonly format: OutputFormat;
	readonly args: readonly string[];
	readonly options: OptionValues;
}

/**
 * What a command produced. `data` is merged into the JSON envelope; `text` is what a person reads. A result may
 * carry a failure and still have data to show (an invalid config file and its problems).
 */
export interface CommandResult {
	readonly exitCode: ExitCode;
	readonly data: Readonly<Record<string, unknown>>;
	readonly text: string;
	/** The command wrote its own output as it went (JSON lines): nothing more goes to stdout, a failure to stderr. */
	readonly streamed?: true;
	readonly failure?: {
		readonly kind: FailureKind;
		readonly message: string;
		/** The text already says what failed: people get no second line on stderr (JSON still carries it). */
		readonly shownInText?: boolean;
	};
}

export interface CommandSpec {
	/** One or two words: `sessions`, `policy init`, `agent allow`. */
	readonly name: string;
	readonly summary: string;
	/** Arguments after the command name, e.g. `<query> [--limit N]`. */
	readonly synopsis: string;
	/** The help body: options and what the command does. */
	readonly help: string;
	/** In `util.parseArgs` form; parsed strictly, together with the global options. */
	readonly options: ParseArgsOptionsConfig;
	readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
	readonly run: (input: CommandInput) => Promise<CommandResult>;
}

export function success(data: Readonly<Record<string, unknown>>, text: string): CommandResult {
	return { exitCode: 0, data, text };
}
