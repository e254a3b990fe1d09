/**
 * fd (fdfind on Debian): read-only only as `--version` alone; `-x`/`-X` run a command for what it finds (up to
 * `;`), classified on its own with `{}` standing for the search paths.
 */
import { type BashWord, syntheticWord } from "../bash-word.ts";
import { argvInner, type InnerCommand, scanWords, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { versionOnly } from "./read-only-helpers.ts";

/** fd's options that take a value. */
const FD_VALUE = valueTaking(
	opts(
		"-e=",
		"--extension=",
		"-t=",
		"--type=",
		"-d=",
		"--max-depth=",
		"--min-depth=",
		"--exact-depth=",
		"-E=",
		"--exclude=",
		"-S=",
		"--size=",
		"--changed-within=",
		"--changed-before=",
		"-o=",
		"--owner=",
		"-j=",
		"--threads=",
		"--max-results=",
		"--base-directory=",
		"--path-separator=",
		"-c=",
		"--color=",
		"--ignore-file=",
		"--search-path=",
		"--batch-size=",
	),
);

function unwrapFd(args: readonly BashWord[], name: string): Unwrapped | undefined {
	const execAt = args.findIndex((word) => ["-x", "--exec", "-X", "--exec-batch"].includes(word.text));
	if (execAt === -1) return undefined;
	const own = args.slice(0, execAt);
	const scanned = scanWords(own, FD_VALUE, false);
	const searchPaths = scanned.operands
		.slice(1)
		.flatMap((index) => (own[index] === undefined ? [] : [own[index]]));
	const inner: InnerCommand[] = [];
	let start = execAt + 1;
	while (start < args.length) {
		let end = start;
		while (end < args.length && args[end]?.text !== ";") end++;
		inner.push(
			...argvInner(args.slice(start, end), `${name} ${args[execAt]?.text}`, {
				placeholder: {
					token: /\{(\/|\/\/|\.|\/\.)?\}/,
					paths: searchPaths.length > 0 ? searchPaths : [syntheticWord(".", ".")],
				},
			}),
		);
		const nextExec = args.findIndex(
			(word, index) => index > end && ["-x", "--exec", "-X", "--exec-batch"].includes(word.text),
		);
		if (nextExec === -1) break;
		start = nextExec + 1;
	}
	return inner.length === 0 ? undefined : { inner };
}

export const FD: CommandSpec = { readOnly: versionOnly(["-V"]), unwrap: unwrapFd };

/** fdfind: fd under Debian's name (never proven read). */
export const FDFIND: CommandSpec = { unwrap: unwrapFd };
