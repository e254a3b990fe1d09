/**
 * wget: it reaches another machine (network-egress); `-O`, `-o`, `-P` write files, `-i` and the post files are
 * read. Read-only only as `--version` alone.
 */
import type { PathAccess } from "../../action.ts";
import type { BashWord } from "../bash-word.ts";
import { scanArgs } from "../option-scan.ts";
import { fromValueText, fromWord, type PathCandidate } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

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

const WGET_TIERS = [...rows("network-egress", ["wget *"])];

export const WGET: CommandSpec = {
	readOnly: versionOnly(["-V"]),
	tiers: WGET_TIERS,
	extractPaths: extractWget,
};
