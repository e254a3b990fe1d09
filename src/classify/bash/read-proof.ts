/**
 * The burden of proof for `read` (adr/0003): a command is read only when every word of it is positively known to
 * read. Its name must be a known read-only command, spelt bare or as a path in a system binary directory; every
 * option must be one its read-only form accepts (resolved as the tool resolves it: clusters of short options,
 * values attached or separate, `--name=value`), with the value checked where it matters; no word that could
 * become an option may be an expansion; operands may come at run time (`xargs`) only for a command that reads no
 * options from them. Anything not proven is at least `write`, with a reason that names the word.
 */
import path from "node:path";
import { maxTier, type Tier } from "../../vocabulary/tier.ts";
import { ownEntry } from "../own-entry.ts";
import { strictest, type TierRaise } from "../tier-raise.ts";
import { type BashWord, syntheticWord } from "./bash-word.ts";
import { commandSpec } from "./commands/index.ts";
import { fromWord, type PathCandidate } from "./path-spec.ts";
import type { OptionSpec, ParsedLine, ReadOnlyCommand, ReadVerdict } from "./read-only-spec.ts";

/** Where the system's own programs live: `/usr/bin/ls` is ls, `/tmp/x/ls` and `./ls` are not. */
const SYSTEM_BIN_DIRECTORIES: ReadonlySet<string> = new Set([
	"/bin",
	"/usr/bin",
	"/usr/local/bin",
	"/sbin",
	"/usr/sbin",
	"/usr/local/sbin",
	"/opt/homebrew/bin",
]);

/**
 * Whether a command name stands for the system's program of that name: a bare name, or exactly
 * `<system binary directory>/<name>`. The path is taken as written, not normalised: the kernel resolves `..`
 * after symbolic links (`/proc/self/cwd/../../usr/bin/ls` can be any file), so no other spelling is proven.
 */
export function isSystemProgramName(named: string): boolean {
	if (!named.includes("/")) return true;
	const slash = named.lastIndexOf("/");
	return slash < named.length - 1 && SYSTEM_BIN_DIRECTORIES.has(named.slice(0, slash));
}

export interface ReadProofInput {
	readonly name: BashWord;
	readonly args: readonly BashWord[];
	/** `xargs`: operands (and so options) are appended at run time. */
	readonly runtimeOperands: boolean;
	/** It runs after the shell changed directory (`cd x && git status`). */
	readonly movedAway: boolean;
}

/** The verdict for a command the read-only table knows; undefined for any other command (the tier table decides). */
export function proveRead(input: ReadProofInput): ReadVerdict | undefined {
	const base = path.posix.basename(input.name.text);
	const spec = commandSpec(base)?.readOnly;
	if (spec === undefined) return undefined;
	const named = input.name.text;
	if (!isSystemProgramName(named)) {
		return notRead("write", `\`${named}\` is a program at a path of its own, not the system's ${base}`, []);
	}
	if (input.runtimeOperands) {
		return notRead(
			"write",
			`xargs appends words to ${base} at run time, and any of them could be an option`,
			[],
		);
	}
	if (input.movedAway && spec.configFromDirectory !== undefined)
		return notRead("write", spec.configFromDirectory, []);
	return proveWith(spec, base, input.args);
}

function notRead(tier: Tier, reason: string, paths: readonly PathCandidate[]): ReadVerdict {
	return { read: false, tier, reason, paths };
}

function proveWith(spec: ReadOnlyCommand, name: string, args: readonly BashWord[]): ReadVerdict {
	if (spec.custom) return spec.custom(args);
	const paths: PathCandidate[] = [];
	const raises: TierRaise[] = [];
	const parsed = parseLine(spec, name, args, paths, raises);
	if ("failure" in parsed) return notRead(maxTier(strictest(raises).tier, "write"), parsed.failure, paths);
	if (spec.subcommands) {
		const [sub, ...rest] = parsed.operands;
		if (sub === undefined) {
			if (spec.bare === true && raises.length === 0) return { read: true, paths };
			return notRead(
				maxTier(strictest(raises).tier, "write"),
				`${name} without a subcommand is not known to be read-only`,
				paths,
			);
		}
		if (!sub.literal)
			return notRead("write", `the ${name} subcommand \`${sub.text}\` is computed at run time`, paths);
		const alone = parsed.options.find((option) => option.spec.onlyWithoutSubcommand !== undefined);
		if (alone?.spec.onlyWithoutSubcommand !== undefined)
			return notRead("write", alone.spec.onlyWithoutSubcommand, paths);
		const subSpec = ownEntry(spec.subcommands, sub.text);
		// A raise found before the subcommand stands whatever follows (`git --exec-path /x log`).
		if (subSpec === undefined)
			return notRead(
				maxTier(strictest(raises).tier, "write"),
				`\`${name} ${sub.text}\` is not a read-only ${name} command`,
				paths,
			);
		const inner = proveWith(subSpec, `${name} ${sub.text}`, rest);
		if (raises.length === 0) return inner.read ? { read: true, paths: [...paths, ...inner.paths] } : inner;
		const top = maxTier(strictest(raises).tier, "write");
		return notRead(inner.read ? top : maxTier(top, inner.tier), raises[0]?.reason ?? "", [
			...paths,
			...inner.paths,
		]);
	}
	const operandFailure = checkOperands(spec, name, parsed, paths, raises);
	if (operandFailure !== null)
		return notRead(maxTier(strictest(raises).tier, "write"), operandFailure, paths);
	const checked = spec.check?.(parsed, paths);
	if (checked) raises.push(checked);
	if (raises.length > 0) {
		const top = strictest(raises);
		return notRead(top.tier, top.reason, paths);
	}
	return { read: true, paths };
}

/**
 * Splits the words into options and operands the way a getopt_long tool does (permuting, unless the spec says
 * options come first), matching each option exactly against the spec. A word that is not proven to be what it
 * looks like fails the parse, with the reason.
 */
export function parseLine(
	spec: ReadOnlyCommand,
	name: string,
	args: readonly BashWord[],
	paths: PathCandidate[],
	raises: TierRaise[],
): ParsedLine | { readonly failure: string } {
	const options: { spec: OptionSpec; values: BashWord[] }[] = [];
	const operands: BashWord[] = [];
	let onlyOperands = false;
	const takeValues = (option: OptionSpec, attached: BashWord | undefined, at: number): number | string => {
		const count = option.values ?? (option.value === undefined ? 0 : 1);
		const values: BashWord[] = [];
		if (attached !== undefined) values.push(attached);
		let next = at;
		while (values.length < count) {
			const word = args[next + 1];
			if (word === undefined) return `${option.names[0]} of ${name} is missing its value`;
			// Taken as a value only if the tool surely takes it as one: if the table is wrong about this option
			// (its value optional, attached only), `--output=f` here would be an option the proof never saw.
			if (/^-[A-Za-z-]/.test(word.text))
				return `\`${word.text}\` after ${option.names[0]} of ${name} looks like an option, not a value`;
			values.push(word);
			next++;
		}
		const problem = checkValues(option, values, name, paths, raises);
		if (problem !== null) return problem;
		options.push({ spec: option, values });
		return next;
	};
	for (let i = 0; i < args.length; i++) {
		const word = args[i];
		if (word === undefined) break;
		const text = word.text;
		if (onlyOperands || (spec.optionsFirst === true && operands.length > 0)) {
			operands.push(word);
			continue;
		}
		const globbed = !word.literal && GLOBBED_LONG_VALUE.exec(text);
		if (globbed) {
			// `--include=*.ts`: every word the glob can become starts `--include=`, so it is that option.
			const optionName = globbed[1] ?? "";
			const option = findOption(spec, optionName);
			if (option === undefined) return { failure: unknownLong(spec, name, optionName, raises) };
			if (option.raise !== undefined) raises.push(option.raise);
			if (option.value === undefined && option.values !== 1)
				return { failure: `${optionName} of ${name} takes no value` };
			const next = takeValues(option, attachedValue(word, optionName.length + 1), i);
			if (typeof next === "string") return { failure: next };
			continue;
		}
		if (!word.literal && !word.cannotBecomeOption) {
			return { failure: `\`${text}\` is expanded at run time and could become an option of ${name}` };
		}
		if (text === "--" && word.literal) {
			// `git stash -- list` is `git stash push -- list`: a subcommand is only the first word.
			if (spec.subcommands !== undefined) return { failure: `\`--\` comes before the ${name} subcommand` };
			onlyOperands = true;
			continue;
		}
		const plus = spec.plusOptions === true && text.startsWith("+") && text.length > 1 && word.literal;
		if ((!text.startsWith("-") && !plus) || text === "-" || !word.literal) {
			operands.push(word);
			continue;
		}
		if (spec.numericOption === true && /^-\d+$/.test(text)) continue;
		if (text.startsWith("--")) {
			const equals = text.indexOf("=");
			const optionName = equals < 0 ? text : text.slice(0, equals);
			const attached = equals < 0 ? undefined : attachedValue(word, equals + 1);
			const option = findOption(spec, optionName);
			if (option === undefined) return { failure: unknownLong(spec, name, optionName, raises) };
			if (option.raise !== undefined) raises.push(option.raise);
			if (attached !== undefined && option.value === undefined && option.values === undefined)
				return { failure: `${optionName} of ${name} takes no value` };
			if (attached === undefined && option.value === "optional") {
				options.push({ spec: option, values: [] });
				continue;
			}
			const next = takeValues(option, attached, i);
			if (typeof next === "string") return { failure: next };
			i = next;
			continue;
		}
		// A cluster of short options: `-la`, `-n5`, `-tvf x.tar`.
		for (let k = 1; k < text.length; k++) {
			const optionName = `${text[0]}${text[k]}`;
			const option = findOption(spec, optionName);
			if (option === undefined)
				return {
					failure: `\`${optionName}\` (in \`${text}\`) is not an option ${name} is known to read with`,
				};
			if (option.raise !== undefined) raises.push(option.raise);
			if (option.value === undefined && option.values === undefined) {
				options.push({ spec: option, values: [] });
				continue;
			}
			if (spec.clusterValuesFollow === true) {
				// tree: `-Io x out` is -I x, then -o out; the rest of the cluster is more options.
				const next = takeValues(option, undefined, i);
				if (typeof next === "string") return { failure: next };
				i = next;
				continue;
			}
			const rest = text.slice(k + 1);
			if (option.value === "optional") {
				options.push({ spec: option, values: rest === "" ? [] : [attachedValue(word, k + 1)] });
				break;
			}
			const next = takeValues(option, rest === "" ? undefined : attachedValue(word, k + 1), i);
			if (typeof next === "string") return { failure: next };
			i = next;
			break;
		}
	}
	return { options, operands };
}

/**
 * The value glued to an option (`--file=F`, `-fF`), from `offset` on, as a word of its own: its path is the
 * path's tail too (the whole word's path would be a file named `--file=F`, which no guard or device check sees).
 * bash does not expand a `~` there, so a leading `~` is a directory of that name.
 */
function attachedValue(word: BashWord, offset: number): BashWord {
	const prefix = word.text.slice(0, offset);
	const tail = word.pathValue?.startsWith(prefix) === true ? word.pathValue.slice(offset) : undefined;
	return {
		...word,
		text: word.text.slice(offset),
		pathValue: tail?.startsWith("~") === true ? `./${tail}` : tail,
	};
}

/** `--name=` then a value whose only expansions are globs and braces (no variable, substitution or quote). */
const GLOBBED_LONG_VALUE = /^(--[A-Za-z0-9][A-Za-z0-9-]*)=[^$`'"\\]*[*?[{][^$`'"\\]*$/;

function findOption(spec: ReadOnlyCommand, name: string): OptionSpec | undefined {
	return spec.options.find((candidate) => candidate.names.includes(name));
}

/** A long option the spec does not list: an abbreviation of one it lists, or simply unknown. */
function unknownLong(spec: ReadOnlyCommand, name: string, optionName: string, raises: TierRaise[]): string {
	const matching = spec.options.filter((option) =>
		option.names.some((candidate) => candidate.startsWith("--") && candidate.startsWith(optionName)),
	);
	if (matching.length === 0) return `\`${optionName}\` is not an option ${name} is known to read with`;
	// getopt_long accepts any unambiguous prefix (`--in-pl` is `--in-place`). Not proven here: a tool's whole
	// option list is longer than what this table knows, so the same prefix may pick another option.
	for (const option of matching) if (option.raise !== undefined) raises.push(option.raise);
	const names = matching.flatMap((option) => option.names.filter((n) => n.startsWith(optionName)));
	return `\`${optionName}\` abbreviates ${names.map((n) => `\`${n}\``).join(" or ")}; only full option names are proven read-only`;
}

function checkValues(
	option: OptionSpec,
	values: readonly BashWord[],
	name: string,
	paths: PathCandidate[],
	raises: TierRaise[],
): string | null {
	for (const value of values) {
		if (option.valuePath !== undefined) paths.push(fromWord(value, option.valuePath));
		if (option.check !== undefined) {
			if (!value.literal) return `the value of ${option.names[0]} of ${name} is computed at run time`;
			const problem = option.check(value.text);
			if (problem !== null && problem.tier !== "read") {
				raises.push(problem);
				return problem.reason;
			}
		}
	}
	if (option.valuePath === "write")
		raises.push({ tier: "write", reason: `${option.names[0]} makes ${name} write a file` });
	return null;
}

function checkOperands(
	spec: ReadOnlyCommand,
	name: string,
	parsed: ParsedLine,
	paths: PathCandidate[],
	raises: TierRaise[],
): string | null {
	const rule = spec.operands;
	let operands = parsed.operands;
	if (rule.max !== undefined && operands.length > rule.max) {
		if (rule.beyondMax !== undefined) {
			raises.push(rule.beyondMax);
			for (const extra of operands.slice(rule.max)) paths.push(fromWord(extra, "write"));
			operands = operands.slice(0, rule.max);
		} else {
			return `${name} takes at most ${rule.max} operand${rule.max === 1 ? "" : "s"} in its read-only form`;
		}
	}
	if (rule.kind === "none" && operands.length > 0)
		return `${name} with an operand (\`${operands[0]?.text}\`) is not read-only`;
	if (rule.kind === "files" || rule.kind === "pattern-files") {
		const supplied =
			rule.kind === "pattern-files" &&
			parsed.options.some((option) => option.spec.names.some((n) => rule.patternFrom?.includes(n)));
		const files = rule.kind === "pattern-files" && !supplied ? operands.slice(1) : operands;
		const named = files.filter((file) => file.text !== "-" || !file.literal);
		if (spec.descends?.(parsed) === true) {
			const trees = files.length > 0 ? named : [syntheticWord(".", ".")];
			for (const tree of trees) paths.push({ ...fromWord(tree, "read"), below: true });
		} else {
			const entries = spec.opensEntries?.(parsed) === true ? { entries: true as const } : {};
			for (const file of named) paths.push({ ...fromWord(file, "read"), ...entries });
		}
	}
	return null;
}
