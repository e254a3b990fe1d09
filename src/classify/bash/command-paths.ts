/**
 * Which arguments of a command name files, and whether the command reads or writes them. A known command says
 * so in its file (commands/, adr/0003): a path spec read here, or an extractor of its own; an unknown command's
 * path-looking arguments (containing `/`, or starting with `.` or `~`) are taken as reads.
 */
import type { PathAccess } from "../action.ts";
import type { BashWord } from "./bash-word.ts";
import { commandSpec } from "./commands/index.ts";
import { naming, valueTaking } from "./commands/option-notation.ts";
import { hasOption, type ScannedArgs, scanArgs } from "./option-scan.ts";
import { fromValueText, fromWord, type PathCandidate, type PathSpec } from "./path-spec.ts";

export type { PathCandidate };

/** Paths named by one command's arguments. */
export function commandPathCandidates(name: string, args: readonly BashWord[]): PathCandidate[] {
	const registered = commandSpec(name);
	const special = registered?.extractPaths;
	if (special !== undefined) return special(args);
	const spec = registered?.paths;
	if (spec === undefined) return unknownCommandPaths(args);
	return specPaths(spec, args);
}

function specPaths(spec: PathSpec, words: readonly BashWord[]): PathCandidate[] {
	const args = spec.readAsOperands === undefined ? words : words.map(spec.readAsOperands);
	const texts = args.map((arg) => arg.text);
	const scanned = scanArgs(texts, { withValue: optionsWithValue(spec), stopAtOperand: false });
	const out: PathCandidate[] = [];
	out.push(
		...optionPaths(
			scanned,
			args,
			[...(spec.readOptions ?? []), ...naming(spec.options ?? [], "read")],
			"read",
		),
	);
	out.push(
		...optionPaths(
			scanned,
			args,
			[...(spec.writeOptions ?? []), ...naming(spec.options ?? [], "write")],
			"write",
		),
	);
	if (spec.operands === "none") return out;
	const leadingSupplied =
		spec.leadingSuppliedBy !== undefined && hasOption(scanned, ...spec.leadingSuppliedBy);
	const operands = scanned.operands.slice(leadingSupplied ? 0 : (spec.skipLeading ?? 0));
	const targeted = spec.targetOptions !== undefined && hasOption(scanned, ...spec.targetOptions);
	const written = spec.writesOperands?.(texts) === true;
	operands.forEach((index, position) => {
		const word = args[index];
		if (word === undefined || word.text === "-") return;
		let access: PathAccess = written || spec.operands === "write" ? "write" : "read";
		if (spec.operands === "last-write" && !targeted && position === operands.length - 1) access = "write";
		if (spec.outputOperand === position) access = "write";
		out.push(fromWord(word, access));
	});
	return out;
}

/** Every option of a spec that takes a value, built once per spec (the specs are constants). */
const WITH_VALUE = new WeakMap<PathSpec, ReadonlySet<string>>();

function optionsWithValue(spec: PathSpec): ReadonlySet<string> {
	let set = WITH_VALUE.get(spec);
	if (set === undefined) {
		set = new Set([
			...valueTaking(spec.options ?? []),
			...(spec.withValue ?? []),
			...(spec.readOptions ?? []),
			...(spec.writeOptions ?? []),
			...(spec.targetOptions ?? []),
		]);
		WITH_VALUE.set(spec, set);
	}
	return set;
}

function optionPaths(
	scanned: ScannedArgs,
	args: readonly BashWord[],
	names: readonly string[],
	access: PathAccess,
): PathCandidate[] {
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		if (!names.includes(option.name) || option.value === undefined) continue;
		const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
		out.push(
			word === undefined ? fromValueText(args[option.index], option.value, access) : fromWord(word, access),
		);
	}
	return out;
}

const URL_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

function looksLikePath(text: string): boolean {
	if (text.startsWith("-") || URL_LIKE.test(text)) return false;
	return text.includes("/") || text.startsWith(".") || text.startsWith("~");
}

function unknownCommandPaths(args: readonly BashWord[]): PathCandidate[] {
	return args.filter((arg) => looksLikePath(arg.text)).map((arg) => fromWord(arg, "read"));
}
