/**
 * tar: everything the classifier knows about it. It is at least write (it creates and unpacks files), more when
 * told to run a program; its paths are the archive (written when it creates one), the files it archives, and
 * where it unpacks (the current directory unless `-C` says otherwise). Old-style flags (`tar xzf a.tgz`) count.
 */
import type { PathAccess } from "../../action.ts";
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { hasOption, scanArgs } from "../option-scan.ts";
import { fromValueText, fromWord, type PathCandidate, wordAt } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

function refineTar(args: readonly string[]): TierRaise | undefined {
	const runsProgram = args.some((arg) =>
		/^--(to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command)/.test(
			arg,
		),
	);
	return runsProgram || args.includes("-I") || args.includes("-F")
		? { tier: "privileged", reason: "tar is told to run a program" }
		: undefined;
}

/** tar's options that take a value (which of them name files depends on the mode: see `extractTar`). */
const TAR_VALUE = valueTaking(
	opts(
		"-f= --file=",
		"-C= --directory=",
		"-T= --files-from=",
		"-X= --exclude-from=",
		"-b= --blocking-factor=",
		"-H= --format=",
		"-I= --use-compress-program=",
		"-K=",
		"-N=",
		"-V= --label=",
	),
);

function extractTar(args: readonly BashWord[]): PathCandidate[] {
	const texts = args.map((arg) => arg.text);
	// Old style: `tar xzf archive.tar.gz` has its flags in the first word, without a dash.
	const first = texts[0] ?? "";
	const oldStyle = first !== "" && !first.startsWith("-") && /^[a-zA-Z]+$/.test(first);
	const normalized = oldStyle ? [`-${first}`, ...texts.slice(1)] : texts;
	const scanned = scanArgs(normalized, { withValue: TAR_VALUE, stopAtOperand: false });
	const creates = hasOption(
		scanned,
		"-c",
		"--create",
		"-r",
		"--append",
		"-u",
		"--update",
		"-A",
		"--catenate",
	);
	const extracts = hasOption(scanned, "-x", "--extract", "--get");
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		if (option.value === undefined) continue;
		const word = option.valueIndex === undefined ? undefined : args[option.valueIndex];
		const access: PathAccess =
			(option.name === "-f" || option.name === "--file") && creates
				? "write"
				: (option.name === "-C" || option.name === "--directory") && extracts
					? "write"
					: "read";
		if (
			!["-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from"].includes(
				option.name,
			)
		) {
			continue;
		}
		out.push(
			word === undefined ? fromValueText(args[option.index], option.value, access) : fromWord(word, access),
		);
	}
	if (extracts && !hasOption(scanned, "-C", "--directory"))
		out.push({ access: "write", typed: ".", value: "." });
	if (creates) for (const index of scanned.operands) out.push(...wordAt(args, index, "read"));
	return out;
}

export const TAR: CommandSpec = {
	tiers: rows("write", ["tar *"]),
	refine: refineTar,
	extractPaths: extractTar,
};
