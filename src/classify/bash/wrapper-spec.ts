/**
 * How a command that runs another command is described (wrappers.ts reads them; commands/ writes them): what
 * unwrapping finds, and the helpers an unwrapper is built from.
 */
import type { Tier } from "../../vocabulary/tier.ts";
import type { TierRaise } from "../tier-raise.ts";
import type { BashWord } from "./bash-word.ts";
import { attachedOnly, flags, valueTaking } from "./commands/option-notation.ts";
import type { EnvironmentAssignment } from "./environment-injection.ts";
import { hasOption, type ScannedArgs, scanArgs, valueSet } from "./option-scan.ts";
import type { PathCandidate } from "./path-candidate.ts";
import { fromWord } from "./path-spec.ts";
import type { OptionSpec } from "./read-only-spec.ts";

export interface ArgvOptions {
	readonly floor?: TierRaise;
	/** Runs on another machine or in a container: its paths are not local paths. */
	readonly remote?: boolean;
	/** `env -C dir`: the directory the inner command runs in. */
	readonly cwd?: BashWord;
	/** It runs in another directory than the shell's, though paths resolve as before (`find -execdir`). */
	readonly movedAway?: boolean;
	/**
	 * `find -exec rm {}`: words containing the token stand for these paths, and with `mayBeLinks` for the symbolic
	 * links found below them too, whose targets no word names.
	 */
	readonly placeholder?: {
		readonly token: RegExp;
		readonly paths: readonly BashWord[];
		readonly mayBeLinks?: boolean;
	};
	/** `xargs rm`: more operands arrive at run time. */
	readonly runtimeOperands?: boolean;
	/** Environment assignments the wrapper makes (`env LD_PRELOAD=x cmd`). */
	readonly assignments?: readonly EnvironmentAssignment[];
}

export type InnerCommand =
	| ({ readonly kind: "argv"; readonly words: readonly BashWord[]; readonly via: string } & ArgvOptions)
	| {
			readonly kind: "shell";
			/** Words joined by spaces form the code, as `eval` and `ssh` join them. */
			readonly code: readonly BashWord[];
			readonly via: string;
			readonly floor?: TierRaise;
			readonly remote?: boolean;
	  };

export interface Unwrapped {
	/** The wrapper's own tier, replacing the table lookup; undefined: classify the wrapper like any command. */
	readonly self?: TierRaise;
	readonly selfPaths?: readonly PathCandidate[];
	readonly inner: readonly InnerCommand[];
}

export type Unwrapper = (args: readonly BashWord[], name: string) => Unwrapped | undefined;

export const scanWords = (
	words: readonly BashWord[],
	withValue: ReadonlySet<string>,
	stopAtOperand = true,
): ScannedArgs =>
	scanArgs(
		words.map((word) => word.text),
		{ withValue, stopAtOperand },
	);

export const NEUTRAL: TierRaise = {
	tier: "read",
	reason: "runs the command it is given (classified on its own)",
};

/**
 * Every option a neutral wrapper is known to take. A wrapper is read (neutral) only when each option it was given
 * is one of these: an option it does not know may take a value, and so change which word is the command it runs
 * (`env --default-signal rm x`: GNU env runs `rm`).
 */
export interface WrapperOptions {
	readonly withValue: ReadonlySet<string>;
	readonly flags: ReadonlySet<string>;
	/** Options whose value is optional and can only be attached (`--default-signal=INT`, `xargs -i{}`). */
	readonly optional?: ReadonlySet<string>;
}

export function scanWrapper(args: readonly BashWord[], known: WrapperOptions): ScannedArgs {
	const optional = known.optional ?? valueSet();
	return scanArgs(
		args.map((word) => word.text),
		{ withValue: known.withValue, stopAtOperand: true, attachedOnly: optional },
	);
}

/** The wrapper's own tier: neutral when every option is known, else write (what it runs is not proven). */
export function wrapperSelf(
	scanned: ScannedArgs,
	known: WrapperOptions,
	tool: string,
	neutral = NEUTRAL,
): TierRaise {
	for (const option of scanned.options) {
		const attachedToFlag =
			known.flags.has(option.name) && option.value !== undefined && option.valueIndex === undefined;
		if (known.withValue.has(option.name) || known.optional?.has(option.name) === true) continue;
		if (known.flags.has(option.name) && !attachedToFlag) continue;
		return {
			tier: "write",
			reason: `\`${option.name}\` is not an option ${tool} is known to take, so what ${tool} runs is not proven`,
		};
	}
	return neutral;
}

/** A wrapper's known options, from the one notation (commands/option-notation.ts). */
export function knownOptions(specs: readonly OptionSpec[]): WrapperOptions {
	return { withValue: valueTaking(specs), flags: flags(specs), optional: attachedOnly(specs) };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `NAME=value` words at the start of a command (as `env` and `sudo` accept them). */
export function leadingAssignments(words: readonly BashWord[]): EnvironmentAssignment[] {
	const out: EnvironmentAssignment[] = [];
	for (const word of words) {
		if (!ASSIGNMENT.test(word.text)) break;
		const equals = word.text.indexOf("=");
		out.push({ name: word.text.slice(0, equals), value: word.text.slice(equals + 1), literal: word.literal });
	}
	return out;
}

/** The words from the first operand on. */
export function fromFirstOperand(args: readonly BashWord[], scanned: ScannedArgs): readonly BashWord[] {
	const first = scanned.operands[0];
	return first === undefined ? [] : args.slice(first);
}

/** A word's text after `n` characters, as a word of its own (`--command=ls` → `ls`). */
export function tail(word: BashWord, n: number): BashWord {
	return { ...word, text: word.text.slice(n), pathValue: word.pathValue?.slice(n) };
}

export function argvInner(
	words: readonly BashWord[],
	via: string,
	options: ArgvOptions = {},
): InnerCommand[] {
	return words.length === 0 ? [] : [{ kind: "argv", words, via, ...options }];
}

export function simpleWrapper(known: WrapperOptions): Unwrapper {
	return (args, name) => {
		const scanned = scanWrapper(args, known);
		return {
			self: wrapperSelf(scanned, known, name),
			inner: argvInner(fromFirstOperand(args, scanned), name),
		};
	};
}

/** The attached value of an option word (`-ccode`, `--command=code`) as a word. */
export function tailAfter(word: BashWord | undefined, value: string): BashWord | undefined {
	return word === undefined ? undefined : tail(word, word.text.length - value.length);
}

/** `docker exec box cmd`, `kubectl exec pod -- cmd`: the command runs inside a container, on paths not local. */
export function inContainer(
	rest: readonly BashWord[],
	withValue: ReadonlySet<string>,
	via: string,
	floorTier: Tier = "write",
): Unwrapped | undefined {
	const scanned = scanWords(rest, withValue);
	const [target, ...inner] = fromFirstOperand(rest, scanned);
	const floor: TierRaise = { tier: floorTier, reason: `runs inside ${target?.text ?? "a container"}` };
	return { inner: argvInner(inner, via, { floor, remote: true }) };
}

/** `sudo cmd`, `doas cmd`: the command runs as another user (privileged); `-e` edits the files named. */
export function asUser(tool: string, withValue: ReadonlySet<string>): Unwrapper {
	return (args) => {
		const floor: TierRaise = { tier: "privileged", reason: `${tool} runs commands as another user` };
		const scanned = scanWords(args, withValue);
		if (hasOption(scanned, "-e", "--edit")) {
			return {
				self: floor,
				selfPaths: fromFirstOperand(args, scanned).map((w) => fromWord(w, "write")),
				inner: [],
			};
		}
		const rest = fromFirstOperand(args, scanned);
		const assignments = leadingAssignments(rest);
		return { self: floor, inner: argvInner(rest.slice(assignments.length), tool, { floor, assignments }) };
	};
}

/** Interpreters: inline code and programs read from stdin cannot be analysed; a script file runs as usual. */
export interface InterpreterSyntax {
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

export function interpreter(syntax: InterpreterSyntax): Unwrapper {
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

export function inlineCode(name: string): Unwrapped {
	return { self: { tier: "privileged", reason: `inline ${name} code cannot be analysed` }, inner: [] };
}

export function stdinProgram(name: string): Unwrapped {
	return { self: { tier: "privileged", reason: `${name} reads its program from standard input` }, inner: [] };
}

/** `lua -e CODE` and the like: `-e`/`--eval`/`--print` is inline code. */
export const inlineE = interpreter({
	inlineShort: "e",
	inlineLong: ["--eval", "--print"],
	valueShort: "l",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});
