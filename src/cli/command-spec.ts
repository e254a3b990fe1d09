import type { ParseArgsOptionsConfig } from "node:util";
import type { ExitCode, FailureKind } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import type { OptionValues } from "./option-values.ts";

export type OutputFormat = "text" | "json";

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
	readonly options: ParseArgsOptionsConfig;
	readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
	readonly run: (input: CommandInput) => Promise<CommandResult>;
}

export function success(data: Readonly<Record<string, unknown>>, text: string): CommandResult {
	return { exitCode: 0, data, text };
}
