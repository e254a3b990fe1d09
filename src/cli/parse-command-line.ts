import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { errorMessage } from "../vocabulary/error-message.ts";
import { type CliError, usageError } from "./cli-error.ts";
import type { CommandSpec, OutputFormat } from "./command-spec.ts";
import { GLOBAL_OPTIONS } from "./global-options.ts";
import { OptionValues } from "./option-values.ts";

export type CommandLine = (
	| { readonly kind: "help"; readonly spec: CommandSpec | null }
	| { readonly kind: "version" }
	| { readonly kind: "run"; readonly spec: CommandSpec; readonly args: readonly string[] }
) & { readonly options: OptionValues };

/** What a first, lenient pass learns even from a command line that turns out to be wrong. */
export interface CommandLineScan {
	/** The command, when the words name one. */
	readonly spec: CommandSpec | null;
	/** The `--format` asked for (text when absent or invalid), so a usage error can still be reported as JSON. */
	readonly format: OutputFormat;
}

/**
 * Two passes: a lenient one that knows every option of every command (so an option's value is never taken for
 * the command word) finds the command; a strict one with only that command's options parses for real.
 */
export function scanCommandLine(argv: readonly string[], commands: readonly CommandSpec[]): CommandLineScan {
	const lenient = parseArgs({
		args: [...argv],
		options: allOptions(commands),
		strict: false,
		allowPositionals: true,
	});
	const words = lenient.positionals;
	const named = words[0] === "help" ? words.slice(1) : words;
	return { spec: findCommand(named, commands), format: requestedFormat(argv) };
}

export function parseCommandLine(argv: readonly string[], commands: readonly CommandSpec[]): CommandLine {
	const scan = scanCommandLine(argv, commands);
	const options: ParseArgsOptionsConfig = { ...GLOBAL_OPTIONS, ...(scan.spec?.options ?? {}) };
	let parsed: ReturnType<typeof parseArgs>;
	try {
		parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
	} catch (error) {
		throw usageError(describeParseError(errorMessage(error)));
	}
	const values = new OptionValues(parsed.values);
	const words = parsed.positionals;
	if (words[0] === "help") {
		const rest = words.slice(1);
		if (rest.length > 0 && scan.spec === null) throw unknownCommand(rest, commands);
		return { kind: "help", spec: scan.spec, options: values };
	}
	if (scan.spec === null) {
		if (words.length > 0) throw unknownCommand(words, commands);
		if (values.flag("version")) return { kind: "version", options: values };
		return { kind: "help", spec: null, options: values };
	}
	if (values.flag("help")) return { kind: "help", spec: scan.spec, options: values };
	if (values.flag("version")) throw usageError("--version is not an option of a command; use it alone");
	const args = words.slice(scan.spec.name.split(" ").length);
	const { min, max, name } = scan.spec.positionals;
	if (args.length < min)
		throw usageError(`missing ${name}; usage: pi-permission-hub ${scan.spec.name} ${scan.spec.synopsis}`);
	if (args.length > max) {
		throw usageError(
			`unexpected argument ${JSON.stringify(args[max])}; usage: pi-permission-hub ${scan.spec.name} ${scan.spec.synopsis}`,
		);
	}
	return { kind: "run", spec: scan.spec, args, options: values };
}

function findCommand(words: readonly string[], commands: readonly CommandSpec[]): CommandSpec | null {
	const two = words.slice(0, 2).join(" ");
	return commands.find((c) => c.name === two) ?? commands.find((c) => c.name === words[0]) ?? null;
}

function unknownCommand(words: readonly string[], commands: readonly CommandSpec[]): CliError {
	const [first, second] = words;
	const group = commands.filter((c) => c.name.startsWith(`${first} `)).map((c) => c.name.split(" ")[1]);
	if (group.length > 0) {
		const what = second === undefined ? "needs a subcommand" : `has no subcommand ${JSON.stringify(second)}`;
		return usageError(`${first} ${what}: ${group.join(", ")}`);
	}
	return usageError(`unknown command ${JSON.stringify(first)}; run pi-permission-hub --help for the list`);
}

function allOptions(commands: readonly CommandSpec[]): ParseArgsOptionsConfig {
	const merged: ParseArgsOptionsConfig = { ...GLOBAL_OPTIONS };
	for (const command of commands) Object.assign(merged, command.options);
	return merged;
}

/** Node's messages end with advice about `--` and `=` that does not fit this CLI; keep what went wrong. */
function describeParseError(message: string): string {
	return (message.split(/\.?\s*To specify/)[0] ?? message).replace(/\s*\n\s*/g, " ").trim();
}

/**
 * The `--format` a command line asks for, read off the raw words (the last one wins, as in parseArgs), so that
 * even a line the parser rejects gets its error in the format asked for.
 */
function requestedFormat(argv: readonly string[]): OutputFormat {
	let format: OutputFormat = "text";
	for (let i = 0; i < argv.length; i++) {
		const word = argv[i];
		if (word === "--") break;
		const value =
			word === "--format" ? argv[i + 1] : word?.startsWith("--format=") ? word.slice(9) : undefined;
		if (value === "json" || value === "text") format = value;
	}
	return format;
}
