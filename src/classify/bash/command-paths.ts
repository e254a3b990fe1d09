/**
 * Which arguments of a command name files, and whether the command reads or writes them.
 * Known commands are described by their option syntax; an unknown command's path-looking arguments
 * (containing `/`, or starting with `.` or `~`) are taken as reads.
 */
import type { PathAccess } from "../action.ts";
import { ownEntry } from "../own-entry.ts";
import type { BashWord } from "./bash-word.ts";
import { commandSpec } from "./commands/index.ts";
import { naming, valueTaking } from "./commands/option-notation.ts";
import { hasOption, type ScannedArgs, scanArgs } from "./option-scan.ts";
import {
	fromValueText,
	fromWord,
	type PathCandidate,
	type PathExtractor,
	type PathSpec,
	wordAt,
} from "./path-spec.ts";

export type { PathCandidate };

const READ: PathSpec = { operands: "read" };
const _WRITE: PathSpec = { operands: "write" };

const CHMOD_LIKE: PathSpec = {
	operands: "write",
	skipLeading: 1,
	leadingSuppliedBy: ["--reference"],
	withValue: ["--from"],
	readOptions: ["--reference"],
};

const PATH_SPECS: Readonly<Record<string, PathSpec>> = {
	less: READ,
	more: READ,
	bat: { operands: "read", withValue: ["-l", "--language", "-r", "--line-range", "-H", "--highlight-line"] },
	join: { operands: "read", withValue: ["-t", "-1", "-2", "-j", "-o", "-a", "-v", "-e"] },
	column: { operands: "read", withValue: ["-s", "-c", "-o", "-t"] },
	hexdump: { operands: "read", withValue: ["-n", "-s", "-e", "-f"] },
	xxd: { operands: "read", withValue: ["-c", "-g", "-l", "-s", "-o"], outputOperand: 1 },
	shasum: { operands: "read", withValue: ["-a", "--algorithm"] },
	zcat: READ,
	source: READ,
	".": READ,
	link: { operands: "last-write" },
	chmod: CHMOD_LIKE,
	chown: CHMOD_LIKE,
	chgrp: CHMOD_LIKE,
	man: { operands: "none" },
};

/** Paths named by one command's arguments. */
export function commandPathCandidates(name: string, args: readonly BashWord[]): PathCandidate[] {
	const registered = commandSpec(name);
	const special = registered?.extractPaths ?? ownEntry(SPECIAL_EXTRACTORS, name);
	if (special !== undefined) return special(args);
	const spec = registered?.paths ?? ownEntry(PATH_SPECS, name);
	if (spec === undefined) return unknownCommandPaths(args);
	return specPaths(spec, args);
}

function specPaths(spec: PathSpec, args: readonly BashWord[]): PathCandidate[] {
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

function extractDd(args: readonly BashWord[]): PathCandidate[] {
	const out: PathCandidate[] = [];
	for (const arg of args) {
		if (arg.text.startsWith("if=")) out.push(fromWord(arg, "read", 3));
		if (arg.text.startsWith("of=")) out.push(fromWord(arg, "write", 3));
	}
	return out;
}

function extractUnzip(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: new Set(["-d", "-x", "-P"]), stopAtOperand: false },
	);
	const out = wordAt(args, scanned.operands[0] ?? -1, "read");
	const listing = hasOption(scanned, "-l", "-Z", "-t", "-v", "-p", "-c");
	if (listing) return out;
	const target = scanned.options.find((option) => option.name === "-d");
	if (target?.valueIndex !== undefined) out.push(...wordAt(args, target.valueIndex, "write"));
	else out.push({ access: "write", typed: ".", value: "." });
	return out;
}

function extractZip(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: new Set(["-x", "-i", "-P", "-b", "-n", "-t", "-tt"]), stopAtOperand: false },
	);
	return scanned.operands.flatMap((index, position) =>
		wordAt(args, index, position === 0 ? "write" : "read"),
	);
}

const CURL_VALUE = new Set([
	"-o",
	"--output",
	"-T",
	"--upload-file",
	"-d",
	"--data",
	"--data-binary",
	"--data-raw",
	"--data-ascii",
	"--data-urlencode",
	"--json",
	"-F",
	"--form",
	"-K",
	"--config",
	"-H",
	"--header",
	"-X",
	"--request",
	"-u",
	"--user",
	"-A",
	"--user-agent",
	"-e",
	"--referer",
	"-b",
	"--cookie",
	"-c",
	"--cookie-jar",
	"-x",
	"--proxy",
	"-m",
	"--max-time",
	"--connect-timeout",
	"-w",
	"--write-out",
	"--cacert",
	"--cert",
	"--key",
	"-E",
	"--retry",
	"-r",
	"--range",
	"--url",
	"--resolve",
	"-D",
	"--dump-header",
	"--output-dir",
	"--trace",
	"--trace-ascii",
	"--stderr",
	"--netrc-file",
]);

function extractCurl(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: CURL_VALUE, stopAtOperand: false },
	);
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		const value = option.value;
		if (value === undefined) continue;
		const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
		const path = (access: PathAccess, strip = 0): PathCandidate =>
			word === undefined
				? fromValueText(args[option.index], value.slice(strip), access)
				: fromWord(word, access, strip);
		switch (option.name) {
			case "-o":
			case "--output":
			case "-c":
			case "--cookie-jar":
			case "-D":
			case "--dump-header":
			case "--output-dir":
			case "--trace":
			case "--trace-ascii":
			case "--stderr":
				out.push(path("write"));
				break;
			case "-T":
			case "--upload-file":
			case "-K":
			case "--config":
			case "--netrc-file":
			case "--cert":
			case "--key":
				out.push(path("read"));
				break;
			case "-d":
			case "--data":
			case "--data-binary":
			case "--data-ascii":
			case "--data-urlencode":
			case "--json":
				// `@-` is stdin.
				if (value.startsWith("@") && value !== "@-") out.push(path("read", 1));
				break;
			case "-F":
			case "--form": {
				const at = /^[^=]*=[@<]/.exec(value);
				if (at !== null && value.slice(at[0].length) !== "-") out.push(path("read", at[0].length));
				break;
			}
			default:
				break;
		}
	}
	return out;
}

function extractWget(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{
			withValue: new Set([
				"-O",
				"--output-document",
				"-o",
				"--output-file",
				"-a",
				"--append-output",
				"-P",
				"--directory-prefix",
				"-i",
				"--input-file",
				"--post-file",
				"--body-file",
				"-U",
				"--user-agent",
				"--header",
				"-t",
				"--tries",
				"-T",
				"--timeout",
				"-e",
				"--execute",
				"--user",
				"--password",
				"-l",
				"--level",
			]),
			stopAtOperand: false,
		},
	);
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		if (option.value === undefined) continue;
		const access: PathAccess | undefined = [
			"-O",
			"--output-document",
			"-o",
			"--output-file",
			"-a",
			"--append-output",
			"-P",
			"--directory-prefix",
		].includes(option.name)
			? "write"
			: ["-i", "--input-file", "--post-file", "--body-file"].includes(option.name)
				? "read"
				: undefined;
		if (access === undefined) continue;
		const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
		out.push(
			word === undefined ? fromValueText(args[option.index], option.value, access) : fromWord(word, access),
		);
	}
	return out;
}

/** `chmod -x f`: a dash word that is not one of chmod's own flags is the mode, not an option. */
function extractChmod(args: readonly BashWord[]): PathCandidate[] {
	const modeAsOperand = args.map((arg) =>
		/^-[^-]/.test(arg.text) && /[^Rcfvh]/.test(arg.text.slice(1)) ? { ...arg, text: `mode${arg.text}` } : arg,
	);
	return specPaths(CHMOD_LIKE, modeAsOperand);
}

const SPECIAL_EXTRACTORS: Readonly<Record<string, PathExtractor>> = {
	chmod: extractChmod,
	dd: extractDd,
	unzip: extractUnzip,
	zip: extractZip,
	curl: extractCurl,
	wget: extractWget,
};
