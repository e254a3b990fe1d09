/**
 * bash, and how every shell (sh, dash, ash, ksh, mksh, zsh, fish; one file each) is unwrapped: `-c CODE` is
 * parsed and classified on its own, as bash, with the shell's own tier read unless an option can run code first
 * or the code is not bash; a script file or standard input cannot be seen (privileged).
 */
import type { BashWord } from "../bash-word.ts";
import { fromWord } from "../path-spec.ts";
import type { Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

const SHELL_VALUE = valueTaking(opts("-o=", "+o=", "-O=", "+O=", "--rcfile=", "--init-file="));
/** Short options of `bash -c …` that leave the code as given (exit on error, trace, no globbing …). */
const SHELL_FLAGS = new Set([..."ceuxvfnCbhmBPT"]);
/** `-o NAME` / `-O NAME` values proven harmless: how errors, globs and traces behave. */
const SHELL_SETTINGS = new Set([
	...["errexit", "nounset", "pipefail", "xtrace", "verbose", "noglob", "noclobber", "errtrace", "functrace"],
	...["extglob", "globstar", "nullglob", "dotglob", "failglob", "nocaseglob", "lastpipe", "inherit_errexit"],
]);
const SHELL_LONG = new Set(["--norc", "--noprofile", "--posix", "--version", "--help", "--noediting"]);
/**
 * Shells whose syntax differs from bash's where it matters: `$'…'` is not a quote in dash, so
 * `sh -c 'echo $'\''a\'\'' ; touch F'` hides a command bash's grammar never sees; `((` is two subshells.
 */
const POSIX_SHELLS = new Set(["sh", "dash", "ash", "ksh", "mksh"]);

/** Why an option of `bash -c` is not proven to leave the code as given, or undefined. */
function unprovenShellOption(text: string, value: string | undefined, name: string): string | undefined {
	if (text === "-o" || text === "+o" || text === "-O" || text === "+O") {
		return value !== undefined && SHELL_SETTINGS.has(value) ? undefined : `${name} ${text} ${value ?? ""}`;
	}
	if (text.startsWith("--")) return SHELL_LONG.has(text) ? undefined : `${name} ${text}`;
	return [...text.slice(1)].every((flag) => SHELL_FLAGS.has(flag)) ? undefined : `${name} ${text}`;
}

export function unwrapShell(args: readonly BashWord[], name: string): Unwrapped {
	let inlineCode = false;
	let readsStdin = false;
	let onlyInfo = true;
	let unproven: string | undefined;
	let operand: number | undefined;
	for (let i = 0; i < args.length; i++) {
		const text = args[i]?.text ?? "";
		if (text === "--" || text === "-") {
			operand = i + 1 < args.length ? i + 1 : undefined;
			break;
		}
		if (!/^[-+]/.test(text)) {
			operand = i;
			break;
		}
		if (SHELL_VALUE.has(text)) {
			unproven ??= unprovenShellOption(text, args[i + 1]?.text, name);
			i++;
			onlyInfo = false;
			continue;
		}
		// `-euo pipefail`: a cluster ending in o/O takes the next word as the setting's name.
		if (/^[-+][A-Za-z]+[oO]$/.test(text) && !text.includes("c")) {
			unproven ??= unprovenShellOption(text.slice(0, -1), undefined, name);
			unproven ??= unprovenShellOption(`${text[0]}${text.at(-1)}`, args[i + 1]?.text, name);
			i++;
			onlyInfo = false;
			continue;
		}
		if (text === "--version" || text === "--help") continue;
		onlyInfo = false;
		unproven ??= unprovenShellOption(text, undefined, name);
		if (/^[-+][^-]*c/.test(text)) inlineCode = true;
		if (/^-[^-]*s/.test(text)) readsStdin = true;
	}
	const code = operand === undefined ? undefined : args[operand];
	if (inlineCode) {
		if (code === undefined)
			return { self: { tier: "privileged", reason: `${name} -c has no code to analyse` }, inner: [] };
		const notBash =
			name === "zsh" || name === "fish"
				? `${name} code is not bash (its globs and substitutions run code bash's grammar does not show)`
				: POSIX_SHELLS.has(name) && /\$'|\(\(/.test(code.text)
					? `${name} reads \`$'…'\` and \`((\` differently from bash, so its code cannot be analysed as bash`
					: undefined;
		const refused =
			notBash ??
			(unproven === undefined ? undefined : `\`${unproven.trim()}\` can run code before the given code`);
		// The code is still walked as bash, so rules for the commands in it match.
		return {
			self:
				refused === undefined
					? { tier: "read", reason: `${name} -c runs the given code (classified on its own)` }
					: { tier: "privileged", reason: refused },
			inner: [{ kind: "shell", code: [code], via: `${name} -c` }],
		};
	}
	if (code !== undefined && !readsStdin) {
		return {
			self: { tier: "privileged", reason: `${name} runs a script file whose commands cannot be seen` },
			selfPaths: [fromWord(code, "read")],
			inner: [],
		};
	}
	if (onlyInfo && code === undefined && args.length > 0) {
		return { self: { tier: "read", reason: `${name} prints information` }, inner: [] };
	}
	return { self: { tier: "privileged", reason: `${name} reads commands from standard input` }, inner: [] };
}

export const BASH: CommandSpec = { unwrap: unwrapShell };
