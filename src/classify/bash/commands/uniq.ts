/**
 * uniq: it filters repeated lines; a second operand is the file it writes.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const uniq: ReadOnlyCommand = {
	options: opts(
		"-c --count",
		"-d --repeated",
		"-D",
		"--all-repeated[=]",
		"-f= --skip-fields=",
		"--group[=]",
		"-i --ignore-case",
		"-s= --skip-chars=",
		"-u --unique",
		"-z --zero-terminated",
		"-w= --check-chars=",
		...HELP,
	),
	operands: { kind: "files", max: 1, beyondMax: { tier: "write", reason: "uniq writes its second operand" } },
	numericOption: true,
};

export const UNIQ: CommandSpec = {
	readOnly: uniq,
	paths: { operands: "read", outputOperand: 1, options: uniq.options },
};
