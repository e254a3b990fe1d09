/**
 * How the paths a command's words name are described: a path candidate, the data spec most commands' paths are
 * read by (command-paths.ts), and the helpers a command's own extractor (commands/) builds candidates with.
 */
import type { PathAccess } from "../action.ts";
import type { BashWord } from "./bash-word.ts";
import { scanArgs } from "./option-scan.ts";
import type { PathCandidate } from "./path-candidate.ts";
import type { OptionSpec } from "./read-only-spec.ts";

export type { PathCandidate };

export interface PathSpec {
	/** What the operands are; `last-write`: the last operand is written and the others read (cp, ln). */
	readonly operands: "read" | "write" | "last-write" | "none";
	/** Leading operands that are not paths (a pattern, a mode, an owner, a script). */
	readonly skipLeading?: number;
	/** Options that supply that leading operand instead (`grep -e PAT`), so every operand is a path. */
	readonly leadingSuppliedBy?: readonly string[];
	/**
	 * The command's options in the one notation (commands/option-notation.ts): which take a value, and which
	 * value names a file read (`=@`) or written (`=>`).
	 */
	readonly options?: readonly OptionSpec[];
	readonly withValue?: readonly string[];
	readonly readOptions?: readonly string[];
	readonly writeOptions?: readonly string[];
	/** `cp -t DIR`: with one of these, every operand is a source (read). */
	readonly targetOptions?: readonly string[];
	/** `uniq IN OUT`: the operand at this position is written. */
	readonly outputOperand?: number;
	/** A word to read as an operand before the options are parsed (`chmod -x f`: `-x` is the mode). */
	readonly readAsOperands?: (word: BashWord) => BashWord;
	/** `sed -i`: operands become written. */
	readonly writesOperands?: (args: readonly string[]) => boolean;
}

/** A command whose paths no data spec describes (find's expression, tar's modes, dd's `if=`). */
export type PathExtractor = (args: readonly BashWord[]) => PathCandidate[];

export function fromWord(word: BashWord, access: PathAccess, stripPrefix = 0): PathCandidate {
	return {
		access,
		typed: word.text.slice(stripPrefix),
		value: word.pathValue === undefined ? undefined : word.pathValue.slice(stripPrefix),
	};
}

/** A value glued to its option (`--output=f`, `-of`): resolvable only when the whole word is. */
export function fromValueText(word: BashWord | undefined, value: string, access: PathAccess): PathCandidate {
	const known = word?.pathValue !== undefined && word.pathValue === word.text;
	return { access, typed: value, value: known ? value : undefined };
}

export function wordAt(args: readonly BashWord[], index: number, access: PathAccess): PathCandidate[] {
	const word = args[index];
	return word === undefined ? [] : [fromWord(word, access)];
}

/** `host:path` and `user@host:path` are remote; `./a:b` and `/a:b` are local. */
function isRemoteOperand(text: string): boolean {
	return /^[^/]*:/.test(text) && !text.startsWith(".");
}

/** scp/rsync: the last operand is the destination, the others sources; remote ones are not local paths. */
export function copyToHost(withValue: ReadonlySet<string>): PathExtractor {
	return (args) => {
		const scanned = scanArgs(
			args.map((arg) => arg.text),
			{ withValue, stopAtOperand: false },
		);
		return scanned.operands.flatMap((index, position) => {
			const word = args[index];
			if (word === undefined || isRemoteOperand(word.text)) return [];
			return [fromWord(word, position === scanned.operands.length - 1 ? "write" : "read")];
		});
	};
}
