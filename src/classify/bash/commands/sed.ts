/**
 * sed: everything the classifier knows about it. Its options (one list, for the read proof, the paths and the
 * in-place raise), and what a sed program does, read the way GNU sed reads it, for the read-only proof: a
 * program is `read` only when every command in it is known to neither write a file nor run one. `w`/`W` (and
 * `s///w`) write, `e` (and `s///e`) run a command, `v`/unknown letters are not proven; anything this reader
 * cannot follow is not proven either. `r`/`R` read a file, which is a read.
 */
import { hasShortFlag, scanArgs } from "../option-scan.ts";
import type { PathSpec } from "../path-spec.ts";
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec, Refiner } from "./command-spec.ts";
import { opts, raising, valueTaking } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

type SedVerdict =
	| { readonly ok: true; readonly reads: readonly string[] }
	| { readonly ok: false; readonly reason: string; readonly writes: boolean };

/** Commands that take no argument. */
const PLAIN = new Set(["p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "l", "=", "z", "F", "{", "}"]);
/** Commands that take an optional exit code. */
const EXIT = new Set(["q", "Q"]);
/** Commands whose argument is a label. */
const BRANCH = new Set(["b", "t", "T", ":"]);
/** Commands whose argument is text to the end of the line (`a text`, `i\`, `c\`). */
const TEXT = new Set(["a", "i", "c"]);

function analyzeSedScript(script: string): SedVerdict {
	const reads: string[] = [];
	let i = 0;
	const fail = (reason: string, writes = false): SedVerdict => ({ ok: false, reason, writes });
	const skipBlanks = (): void => {
		while (i < script.length && /[ \t]/.test(script[i] ?? "")) i++;
	};
	const toLineEnd = (): string => {
		const end = script.indexOf("\n", i);
		const text = script.slice(i, end < 0 ? script.length : end);
		i = end < 0 ? script.length : end;
		return text;
	};
	while (i < script.length) {
		skipBlanks();
		const char = script[i];
		if (char === undefined) break;
		if (char === "\n" || char === ";") {
			i++;
			continue;
		}
		if (char === "#") {
			toLineEnd();
			continue;
		}
		const afterAddress = skipAddresses(script, i);
		if (afterAddress === null) return fail(`the address at "${script.slice(i, i + 20)}" cannot be read`);
		i = afterAddress;
		skipBlanks();
		if (script[i] === "!") {
			i++;
			skipBlanks();
		}
		const command = script[i];
		if (command === undefined) return fail("an address without a command");
		i++;
		if (PLAIN.has(command)) continue;
		if (EXIT.has(command)) {
			skipBlanks();
			while (/[0-9]/.test(script[i] ?? "")) i++;
			continue;
		}
		if (BRANCH.has(command)) {
			// GNU sed ends a label at whitespace or a semicolon (and reads what follows as the next command);
			// ending it at `}` too reads as commands everything any sed might, which is the safe side.
			skipBlanks();
			while (i < script.length && !/[\s;}]/.test(script[i] ?? "")) i++;
			continue;
		}
		if (TEXT.has(command)) {
			toLineEnd();
			continue;
		}
		if (command === "r" || command === "R") {
			skipBlanks();
			reads.push(toLineEnd());
			continue;
		}
		if (command === "w" || command === "W") return fail(`the sed command "${command}" writes a file`, true);
		if (command === "e") return fail('the sed command "e" runs a command');
		if (command === "s" || command === "y") {
			const end = skipDelimited(script, i, 2, command === "s" ? 1 : 0);
			if (end === null) return fail(`a "${command}" command that is not closed`);
			i = end;
			if (command === "s") {
				const flags = /^[gpiImM0-9]*/.exec(script.slice(i))?.[0] ?? "";
				i += flags.length;
				const next = script[i];
				if (next === "w") return fail("the sed flag s///w writes a file", true);
				if (next === "e") return fail("the sed flag s///e runs the result as a command");
				if (next !== undefined && !/[\s;}#]/.test(next)) return fail(`the sed flag "${next}" is not known`);
			}
			continue;
		}
		return fail(`the sed command "${command}" is not known to be read-only`);
	}
	return { ok: true, reads };
}

/** Past zero, one or two addresses (`3`, `$`, `/re/`, `\cREc`, `1~2`, `addr,+N`, `addr,~N`); null when unreadable. */
function skipAddresses(script: string, start: number): number | null {
	let i = skipAddress(script, start);
	if (i === null) return null;
	if (i !== start && script[i] === ",") {
		i++;
		if (script[i] === "+" || script[i] === "~") {
			i++;
			while (/[0-9]/.test(script[i] ?? "")) i++;
			return i;
		}
		const second = skipAddress(script, i);
		if (second === null || second === i) return null;
		i = second;
	}
	return i;
}

function skipAddress(script: string, start: number): number | null {
	let i = start;
	const char = script[i];
	if (char === undefined) return i;
	if (/[0-9]/.test(char)) {
		while (/[0-9]/.test(script[i] ?? "")) i++;
		if (script[i] === "~") {
			i++;
			while (/[0-9]/.test(script[i] ?? "")) i++;
		}
		return i;
	}
	if (char === "$") return i + 1;
	if (char === "/" || char === "\\") {
		const open = char === "\\" ? i + 1 : i;
		const end = skipDelimited(script, open, 1, 1);
		if (end === null) return null;
		i = end;
		while (script[i] === "I" || script[i] === "M") i++;
		return i;
	}
	return i;
}

/**
 * Past `count` sections closed by the delimiter at `start` (`/a/b/` is two), escapes honoured; null if unclosed.
 * The first `regexes` sections are regular expressions, where GNU sed, as POSIX says, does not end the section
 * at a delimiter inside a bracket expression (`s/[/]/;/e` is a regex `[/]`, a replacement `;` and the flag `e`).
 */
function skipDelimited(script: string, start: number, count: number, regexes: number): number | null {
	const delimiter = script[start];
	if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return null;
	// Which of a bracket and a delimiter `[` or `]` wins is not something to guess.
	if (regexes > 0 && (delimiter === "[" || delimiter === "]")) return null;
	let i = start + 1;
	let closed = 0;
	while (i < script.length) {
		const char = script[i];
		if (char === "\\") i += 2;
		else if (char === "\n") return null;
		else if (char === "[" && closed < regexes) {
			const end = bracketEnd(script, i, delimiter);
			if (end === null) return null;
			i = end;
		} else {
			i++;
			if (char === delimiter && ++closed === count) return i;
		}
	}
	return null;
}

/**
 * Past the bracket expression opening at `start` (`[a-z]`, `[]x]`, `[^]x]`, `[[:alpha:]]`; a backslash is an
 * ordinary character in it). Null when it does not close on its line, or holds the delimiter: both are read
 * differently by different seds, and a program that depends on either is not proven.
 */
function bracketEnd(script: string, start: number, delimiter: string): number | null {
	let i = start + 1;
	if (script[i] === "^") i++;
	if (script[i] === "]") i++;
	while (i < script.length) {
		const char = script[i];
		if (char === "\n" || char === delimiter) return null;
		if (char === "]") return i + 1;
		const next = script[i + 1];
		if (char === "[" && (next === ":" || next === "=" || next === ".")) {
			const close = script.indexOf(`${next}]`, i + 2);
			if (close < 0) return null;
			const inner = script.slice(i + 2, close);
			if (inner.includes("\n") || inner.includes(delimiter)) return null;
			i = close + 2;
			continue;
		}
		i++;
	}
	return null;
}

/**
 * sed's options. `-f FILE` reads the program from a file: a path it reads, and a program the proof cannot see.
 */
const SED_OPTIONS = [
	...opts(
		"-n --quiet --silent",
		"-E -r --regexp-extended",
		"-s --separate",
		"-z --null-data",
		"-u --unbuffered",
		"--posix",
		"--debug",
		"--sandbox",
		"-l= --line-length=",
		"-e= --expression=",
		...HELP,
	),
	raising("write", "sed -i edits files in place", "-i[=] --in-place[=]"),
	raising("privileged", "sed -f runs a sed program from a file, which cannot be seen", "-f=@ --file=@"),
];
const SCRIPT_OPTIONS = ["-e", "--expression", "-f", "--file"];

/** Read-only only with a program that neither writes nor runs anything. */
const sed: ReadOnlyCommand = {
	options: SED_OPTIONS,
	operands: { kind: "pattern-files", patternFrom: SCRIPT_OPTIONS },
	check: (parsed, paths) => {
		const fromOptions = parsed.options.filter((o) => o.spec.names.includes("-e")).flatMap((o) => o.values);
		const scripts = fromOptions.length > 0 ? fromOptions : parsed.operands.slice(0, 1);
		if (scripts.length === 0) return { tier: "write", reason: "sed without a program" };
		for (const script of scripts) {
			if (!script.literal) return { tier: "write", reason: "the sed program is computed at run time" };
			const verdict = analyzeSedScript(script.text);
			if (!verdict.ok) return { tier: verdict.writes ? "write" : "privileged", reason: verdict.reason };
			// `r FILE` reads FILE: a path like any operand, for read rules (`~/.ssh/**` deny).
			for (const file of verdict.reads) paths.push({ access: "read", typed: file, value: file });
		}
		return null;
	},
};

const SED_VALUE = valueTaking(SED_OPTIONS);

const refineSed: Refiner = (args) => {
	const inPlace =
		hasShortFlag(args, "i", "efl") ||
		scanArgs(args, { withValue: SED_VALUE, stopAtOperand: false }).options.some(
			(o) => o.name === "--in-place",
		);
	return inPlace ? { tier: "write", reason: "sed -i edits files in place" } : undefined;
};

/**
 * Whether a `sed` command line is proven to do nothing but substitute text in the files it names: its options
 * are only in-place (with a plain backup suffix), extended regexps and separate files, and every script is one
 * `s` command whose flags neither write a file (`w`) nor run one (`e`). Anything else is not proven.
 */
function sedOnlySubstitutes(args: readonly string[]): boolean {
	const scripts: string[] = [];
	const operands: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		if (arg === "-e" || arg === "--expression") {
			const script = args[++i];
			if (script === undefined) return false;
			scripts.push(script);
		} else if (arg.startsWith("--expression=")) {
			scripts.push(arg.slice("--expression=".length));
		} else if (/^-i[\w.~-]*$|^--in-place(=[\w.~-]+)?$|^-[Ers]+$|^--regexp-extended$|^--separate$/.test(arg)) {
			// In place with a plain backup suffix, extended regexps, separate files: no other effect.
		} else if (arg.startsWith("-")) {
			return false;
		} else {
			operands.push(arg);
		}
	}
	if (scripts.length === 0) {
		const script = operands.shift();
		if (script === undefined) return false;
		scripts.push(script);
	}
	return operands.length > 0 && scripts.every(isPlainSubstitution);
}

/** `s/old/new/flags` with any delimiter, escapes honoured, and only flags that change which text is replaced. */
function isPlainSubstitution(script: string): boolean {
	if (script[0] !== "s" || script.length < 4) return false;
	const delimiter = script[1];
	if (delimiter === undefined || delimiter === "\\" || delimiter === "\n") return false;
	let sections = 0;
	let i = 2;
	for (; i < script.length && sections < 2; i++) {
		const char = script[i];
		if (char === "\\") i++;
		else if (char === "\n") return false;
		else if (char === delimiter) sections++;
	}
	return sections === 2 && /^[gIiMmp0-9]*$/.test(script.slice(i));
}

/** `-i` alone or in a cluster, `--in-place`: the files it names are written. */
const SED_IN_PLACE = (args: readonly string[]): boolean =>
	args.some((arg) => arg === "--in-place" || arg.startsWith("--in-place=")) ||
	args.some((arg) => /^-[^-]*i/.test(arg) && !/^-[^-i]*[efl]/.test(arg));

const SED_PATHS: PathSpec = {
	operands: "read",
	skipLeading: 1,
	leadingSuppliedBy: SCRIPT_OPTIONS,
	options: SED_OPTIONS,
	writesOperands: SED_IN_PLACE,
};

export const SED: CommandSpec = {
	readOnly: sed,
	refine: refineSed,
	paths: SED_PATHS,
	writesOnlyItsPaths: sedOnlySubstitutes,
};

/** GNU sed under its other name: only its in-place raise is known (it is never proven read). */
export const GSED: CommandSpec = { refine: refineSed };
