/**
 * date: it prints the date; setting it (`-s`, `--set`) is privileged, and an operand that is not a format sets
 * it.
 */
import { dateStringCheck } from "../date-string.ts";
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, raising } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const date: ReadOnlyCommand = {
	options: [
		{ names: ["-d", "--date"], value: "required", check: dateStringCheck },
		...opts(
			"-I[=] --iso-8601[=]",
			"-R --rfc-email",
			"--rfc-3339=",
			"-r=@ --reference=@",
			"-u --utc --universal",
			"--debug",
			"--resolution",
			...HELP,
		),
		raising("privileged", "date -s sets the system clock", "-s= --set="),
		// Each line of the file is a date string, which can name a time zone file (see dateStringCheck).
		raising(
			"write",
			"date -f reads date strings that can name a time zone file to open",
			"-f= --file=",
			"read",
		),
	],
	operands: { kind: "text", max: 1 },
	check: (parsed) => {
		const operand = parsed.operands[0];
		if (operand === undefined) return null;
		if (!operand.literal)
			return { tier: "write", reason: `date's operand \`${operand.text}\` is computed at run time` };
		return operand.text.startsWith("+")
			? null
			: { tier: "privileged", reason: `date ${operand.text} sets the system clock` };
	},
};

const DATE_TIERS = [...rows("privileged", ["date -s*", "date --set*"])];

export const DATE: CommandSpec = { readOnly: date, tiers: DATE_TIERS };
