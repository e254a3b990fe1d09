/**
 * The command line: words → the command to run with its options, or help, or the version; and the usage text
 * people read. Node's `util.parseArgs` does the parsing, strictly (adr/0015); this file adds what it cannot do:
 * commands of one or two words, each with its own options, and errors in the words of this CLI.
 */
import { resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { expandHome, resolveAgentDir } from "../policy/config-paths.ts";
import {
	type CliError,
	type CliIo,
	type CommandSpec,
	OptionValues,
	type OutputFormat,
	usageError,
} from "./command.ts";

/** Accepted by every command. */
const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
	log: { type: "string" },
	"agent-dir": { type: "string" },
	format: { type: "string" },
	help: { type: "boolean", short: "h" },
	version: { type: "boolean" },
};

const GLOBAL_HELP = `Global options:
  --agent-dir <dir>      pi's agent directory (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent)
  --log <file>           read this audit log file only (default: <agent dir>/pi-permission-hub/audit.jsonl
                         and its rotated generations audit.1.jsonl …, oldest first)
  --format text|json     output for people (default) or one JSON document on stdout
  -h, --help             help for the command`;

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
		throw rejectedLine(error) ?? error;
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

/**
 * The errors strict `util.parseArgs` throws for a command line it rejects: an option no command has, a string
 * option without its value, a flag given one. Anything else it throws is a bug in the option table.
 */
const PARSE_ARGS_CODES: ReadonlySet<unknown> = new Set([
	"ERR_PARSE_ARGS_UNKNOWN_OPTION",
	"ERR_PARSE_ARGS_INVALID_OPTION_VALUE",
]);

/**
 * A rejected command line as a usage error. Node's messages say what went wrong (`Unknown option '--bogus'`,
 * `Option '--log <value>' argument missing`) and then advise on `--` and `=`, which does not fit this CLI: the
 * advice is cut off, line breaks become spaces.
 */
function rejectedLine(error: unknown): CliError | null {
	if (!(error instanceof Error) || !("code" in error) || !PARSE_ARGS_CODES.has(error.code)) return null;
	const { message } = error;
	return usageError((message.split(/\.?\s*To specify/)[0] ?? message).replace(/\s*\n\s*/g, " ").trim());
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

function parseFormat(value: string | undefined): OutputFormat {
	if (value === undefined || value === "text") return "text";
	if (value === "json") return "json";
	throw usageError(`--format must be "text" or "json" (got ${JSON.stringify(value)})`);
}

export interface GlobalSettings {
	readonly agentDir: string;
	readonly log: string | undefined;
	readonly format: OutputFormat;
}

export function globalSettings(options: OptionValues, io: CliIo): GlobalSettings {
	const agentDirOption = options.string("agent-dir");
	const logOption = options.string("log");
	if (agentDirOption === "") throw usageError("--agent-dir must not be empty");
	if (logOption === "") throw usageError("--log must not be empty");
	return {
		agentDir:
			agentDirOption === undefined
				? resolveAgentDir(io.env, io.homeDir)
				: resolve(io.cwd, expandHome(agentDirOption, io.homeDir)),
		log: logOption === undefined ? undefined : resolve(io.cwd, expandHome(logOption, io.homeDir)),
		format: parseFormat(options.string("format")),
	};
}

export function mainHelp(commands: readonly CommandSpec[], version: string): string {
	const width = Math.max(...commands.map((c) => c.name.length));
	return `pi-permission-hub ${version}: the operator CLI of the pi-permission-hub permission gate.

Usage: pi-permission-hub <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

${GLOBAL_HELP}
  --version              print the version

Exit codes: 0 done; 1 usage error, invalid input, no match or refused; 2 a file could not be read or written.
"pi-permission-hub <command> --help" describes a command.`;
}

export function commandHelp(command: CommandSpec): string {
	const synopsis = command.synopsis === "" ? "" : ` ${command.synopsis}`;
	return `Usage: pi-permission-hub ${command.name}${synopsis} [global options]

${command.summary[0]?.toUpperCase() ?? ""}${command.summary.slice(1)}.

${command.help}

${GLOBAL_HELP}`;
}
