/**
 * Commands that run other commands. Unwrapping finds the inner command (an argv, or shell code to parse) so it
 * is classified and matched on its own; the wrapper may add a floor to it (sudo → privileged, ssh →
 * network-egress) and has a tier of its own. Code that cannot be seen (`source f`, `python -c …`, `bash script`)
 * gives the wrapper the highest tier. A command with a file of its own (commands/) says there how it wraps;
 * this file holds the wrappers not moved yet.
 */
import { ownEntry } from "../own-entry.ts";
import type { BashWord } from "./bash-word.ts";
import { unwrapBunSubcommand } from "./commands/bun.ts";
import { commandSpec } from "./commands/index.ts";
import { valueSet } from "./option-scan.ts";
import {
	type ArgvOptions,
	type InnerCommand,
	scanWords,
	tailAfter,
	type Unwrapped,
	type Unwrapper,
} from "./wrapper-spec.ts";

export type { ArgvOptions, InnerCommand, Unwrapped };

/** `script -c 'cmd' log`: runs the command in a recorded terminal; without `-c` it starts a shell. */
function script(args: readonly BashWord[], name: string): Unwrapped {
	const scanned = scanWords(
		args,
		valueSet("-c", "--command", "-E", "--echo", "-T", "--log-timing", "-I", "-O"),
		false,
	);
	const command = scanned.options.find((option) => option.name === "-c" || option.name === "--command");
	if (command === undefined) return stdinProgram(name);
	const word =
		command.valueIndex !== undefined
			? args[command.valueIndex]
			: tailAfter(args[command.index], command.value ?? "");
	return {
		self: { tier: "write", reason: "script records a terminal session to a file" },
		inner: word === undefined ? [] : [{ kind: "shell", code: [word], via: "script -c" }],
	};
}

/** Interpreters: inline code and programs read from stdin cannot be analysed; a script file runs as usual. */
interface InterpreterSyntax {
	/** Short flags whose presence means inline code (`-c`, `-e`). */
	readonly inlineShort: string;
	readonly inlineLong: readonly string[];
	/** Short flags that take the rest of the cluster, or the next word, as a value. */
	readonly valueShort: string;
	/** Short flags whose value can only be attached (`perl -i.bak`, `-Mstrict`). */
	readonly attachedShort: string;
	readonly valueLong: readonly string[];
	/** Short flags that name a module or script to run instead (`python -m`). */
	readonly runsNamed: string;
	readonly readsStdinWithoutScript: boolean;
	/** Words that only print help or the version and exit (`python -v` is verbose mode, not the version). */
	readonly info: readonly string[];
}

function interpreter(syntax: InterpreterSyntax): Unwrapper {
	return (args, name) => {
		let onlyInfo = args.length > 0;
		for (let i = 0; i < args.length; i++) {
			const text = args[i]?.text ?? "";
			if (text === "-") return stdinProgram(name);
			if (text === "--" || !text.startsWith("-")) return undefined;
			if (syntax.info.includes(text)) continue;
			onlyInfo = false;
			if (text.startsWith("--")) {
				const option = text.split("=")[0] ?? text;
				if (syntax.inlineLong.includes(option)) return inlineCode(name);
				if (syntax.valueLong.includes(option) && !text.includes("=")) i++;
				continue;
			}
			for (const char of text.slice(1)) {
				if (syntax.inlineShort.includes(char)) return inlineCode(name);
				if (syntax.runsNamed.includes(char)) return undefined;
				if (syntax.attachedShort.includes(char)) break;
				if (syntax.valueShort.includes(char)) {
					if (text.endsWith(char)) i++;
					break;
				}
			}
		}
		if (onlyInfo || !syntax.readsStdinWithoutScript) return undefined;
		return stdinProgram(name);
	};
}

function inlineCode(name: string): Unwrapped {
	return { self: { tier: "privileged", reason: `inline ${name} code cannot be analysed` }, inner: [] };
}

function stdinProgram(name: string): Unwrapped {
	return { self: { tier: "privileged", reason: `${name} reads its program from standard input` }, inner: [] };
}

const python = interpreter({
	inlineShort: "c",
	inlineLong: [],
	valueShort: "WX",
	attachedShort: "",
	valueLong: ["--check-hash-based-pycs"],
	runsNamed: "m",
	readsStdinWithoutScript: true,
	info: ["--version", "-V", "--help", "-h"],
});
const node = interpreter({
	inlineShort: "ep",
	inlineLong: ["--eval", "--print"],
	valueShort: "rC",
	attachedShort: "",
	valueLong: [
		"--require",
		"--import",
		"--loader",
		"--experimental-loader",
		"--input-type",
		"--conditions",
		"--env-file",
	],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "-v", "--help", "-h"],
});
const perl = interpreter({
	inlineShort: "eE",
	inlineLong: [],
	valueShort: "",
	attachedShort: "MmIixdDl0C",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "-v", "--help", "-h"],
});
const ruby = interpreter({
	inlineShort: "e",
	inlineLong: [],
	valueShort: "rICE",
	attachedShort: "FKWTx0i",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "--help", "-h"],
});
const php = interpreter({
	inlineShort: "rBRE",
	inlineLong: [],
	valueShort: "cdfzt",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});
const inlineE = interpreter({
	inlineShort: "e",
	inlineLong: ["--eval", "--print"],
	valueShort: "l",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});
const pwsh = interpreter({
	inlineShort: "ce",
	inlineLong: [],
	valueShort: "f",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});

function powershell(args: readonly BashWord[], name: string): Unwrapped | undefined {
	if (args.some((word) => /^-(c|command|e|encodedcommand|ec)$/i.test(word.text))) return inlineCode(name);
	return pwsh(args, name);
}

function deno(args: readonly BashWord[], name: string): Unwrapped | undefined {
	return args[0]?.text === "eval" ? inlineCode(name) : undefined;
}

function bun(args: readonly BashWord[], name: string): Unwrapped | undefined {
	return inlineE(args, name) ?? unwrapBunSubcommand(args, name);
}

const WRAPPERS: Readonly<Record<string, Unwrapper>> = {
	script,
	node,
	nodejs: node,
	perl,
	ruby,
	php,
	lua: inlineE,
	luajit: inlineE,
	Rscript: inlineE,
	osascript: inlineE,
	pwsh: powershell,
	powershell,
	deno,
	bun,
};

/** Unwraps `name args…` if it is a wrapper; undefined when it is an ordinary command. */
export function unwrapCommand(name: string, args: readonly BashWord[]): Unwrapped | undefined {
	if (/^python[0-9.]*$/.test(name)) return python(args, name);
	return (commandSpec(name)?.unwrap ?? ownEntry(WRAPPERS, name))?.(args, name);
}
