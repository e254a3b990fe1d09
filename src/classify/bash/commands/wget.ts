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

/** wget's options that take a value, with what the value is when it names a file (null: it does not). */
const VALUE_OPTIONS: Readonly<Record<string, PathAccess | null>> = {
	"-O": "write",
	"--output-document": "write",
	"-o": "write",
	"--output-file": "write",
	"-a": "write",
	"--append-output": "write",
	"-P": "write",
	"--directory-prefix": "write",
	"-i": "read",
	"--input-file": "read",
	"--post-file": "read",
	"--body-file": "read",
	"-U": null,
	"--user-agent": null,
	"--header": null,
	"-t": null,
	"--tries": null,
	"-T": null,
	"--timeout": null,
	"-e": null,
	"--execute": null,
	"--user": null,
	"--password": null,
	"-l": null,
	"--level": null,
};

function extractWget(args: readonly BashWord[]): PathCandidate[] {
	const scanned = scanArgs(
		args.map((arg) => arg.text),
		{ withValue: new Set(Object.keys(VALUE_OPTIONS)), stopAtOperand: false },
	);
	const out: PathCandidate[] = [];
	for (const option of scanned.options) {
		const access = Object.hasOwn(VALUE_OPTIONS, option.name) ? VALUE_OPTIONS[option.name] : null;
		if (option.value === undefined || access === null || access === undefined) continue;
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
