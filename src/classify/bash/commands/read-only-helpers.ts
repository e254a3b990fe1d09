/** What many read-only specs share (commands/): operand kinds, common checks. */
import type { TierRaise } from "../../tier-raise.ts";
import type { OperandRule, OptionSpec, ParsedLine, ReadOnlyCommand } from "../read-only-spec.ts";
import { opts, raising } from "./option-notation.ts";

export const files: OperandRule = { kind: "files" };
export const text: OperandRule = { kind: "text" };
export const none: OperandRule = { kind: "none" };

export const HELP = ["--help", "--version"];

/** Commands that read or list all of every tree they are given. */
export const always = (): boolean => true;

/** The line has one of these options. */
export function has(parsed: ParsedLine, ...names: readonly string[]): boolean {
	return parsed.options.some((option) => option.spec.names.some((name) => names.includes(name)));
}

/**
 * Following the symbolic links met while recursing reaches whatever a link in the tree points to: a repository
 * can ship a link to the gate's inbox (whose file names are request ids), to a guarded file or to a device, and no
 * word of the command names it. Such a form is not proven read; `instead` names the form that does not follow.
 */
export function followsLinks(what: string, instead: string): TierRaise {
	return {
		tier: "write",
		reason: `${what} that symbolic links met while recursing point to, which no word names (the gate's inbox, a device); ${instead} does not follow them`,
	};
}

/**
 * Reading the files a list names: which files those are (a device such as /dev/tty, the gate's inbox) is in a
 * file the proof cannot see, maybe one a repository ships.
 */
export function readsListedFiles(spec: string, how: string): OptionSpec {
	return raising(
		"write",
		`${how} opens the files a list names, which cannot be seen here (a device, the gate's inbox)`,
		spec,
		"read",
	);
}

/** Commands that read no options from their words and can do nothing but print (echo, test, true). */
export const inert: ReadOnlyCommand = {
	options: [],
	operands: text,
	custom: () => ({ read: true, paths: [] }),
};

export const headTail = (extra: readonly string[]): ReadOnlyCommand => ({
	options: opts(
		"-c= --bytes=",
		"-n= --lines=",
		"-q --quiet --silent",
		"-v --verbose",
		"-z --zero-terminated",
		...extra,
		...HELP,
	),
	operands: files,
	numericOption: true,
});

export const simpleFilter = (...specs: readonly string[]): ReadOnlyCommand => ({
	options: opts(...specs, ...HELP),
	operands: files,
});

export const checksum: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --binary",
			"--tag",
			"-t --text",
			"-z --zero",
			"--ignore-missing",
			"--quiet",
			"--status",
			"--strict",
			"-w --warn",
			...HELP,
		),
		readsListedFiles("-c --check", "a checksum --check"),
	],
	operands: files,
};

export const noArguments: ReadOnlyCommand = { options: opts(...HELP), operands: none };

/** Whether every long option is one of `known`, spelled in full (getopt_long would also take a prefix). */
export function longOptionsAmong(known: ReadonlySet<string>, args: readonly string[]): boolean {
	for (const arg of args) {
		if (arg === "--") return true;
		if (arg.startsWith("--") && !known.has(arg.split("=", 1)[0] ?? arg)) return false;
	}
	return true;
}

/**
 * `tool --version` (or `--help`) alone, exactly: nothing else of these tools is proven read-only here. A short
 * spelling counts only where the tool documents it as the version (`python -v` is verbose mode and then runs
 * the program on standard input). Left out on purpose: launchers that read the project before printing a
 * version, so a repository decides what runs (`cargo`/`rustc`/`rustup` read `rust-toolchain.toml`, whose `path`
 * names the program; `yarn` runs the file `.yarnrc`'s `yarn-path` names; `pnpm`, `go`, `uv`, `bun` and `deno`
 * may download and run the version the project pins; `npm` reads the project's `.npmrc`, which can point it at
 * any host, and writes logs), and `gh`, which checks for updates over the network.
 */
export function versionOnly(short: readonly string[]): ReadOnlyCommand {
	return {
		options: opts("--version", "--help", ...short),
		operands: none,
		check: (parsed) =>
			parsed.options.length === 1
				? null
				: { tier: "write", reason: "only `--version` or `--help` alone is proven read-only" },
	};
}
