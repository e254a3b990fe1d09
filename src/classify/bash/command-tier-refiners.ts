/**
 * Option-dependent raises the pattern table cannot express (combined short flags, option values, program text).
 * Each returns a tier and a reason, or nothing; they only ever raise the table's tier.
 */
import { ownEntry } from "../own-entry.ts";
import type { TierRaise } from "../tier-raise.ts";
import type { Refiner } from "./commands/command-spec.ts";
import { commandSpec } from "./commands/index.ts";
import { type ScannedArgs, scanArgs } from "./option-scan.ts";

const _scan = (args: readonly string[], withValue: ReadonlySet<string> = new Set()): ScannedArgs =>
	scanArgs(args, { withValue, stopAtOperand: false });

/**
 * Builtins that take variable names (`unset`, `read`, `printf -v`, `declare` …) evaluate an array subscript in a
 * name as arithmetic, and `a[$(cmd)]` there runs cmd: a name with any subscript but a number, `@` or `*` is code.
 */
function refineNameTaking(args: readonly string[]): TierRaise | undefined {
	const evaluated = args.find(
		(arg) =>
			/^[A-Za-z_][A-Za-z0-9_]*\[/.test(arg) &&
			!/^[A-Za-z_][A-Za-z0-9_]*\[(-?[0-9]+|@|\*)\](\+?=.*)?$/s.test(arg),
	);
	return evaluated === undefined
		? undefined
		: {
				tier: "privileged",
				reason: `the subscript in \`${evaluated}\` is evaluated as arithmetic, which can run a command`,
			};
}

const REFINERS: Readonly<Record<string, Refiner>> = {
	...Object.fromEntries(
		[
			"unset",
			"read",
			"printf",
			"declare",
			"typeset",
			"local",
			"export",
			"readonly",
			"mapfile",
			"readarray",
		].map((name) => [name, refineNameTaking]),
	),
};

export function refineCommandTier(name: string, args: readonly string[]): TierRaise | undefined {
	return (commandSpec(name)?.refine ?? ownEntry(REFINERS, name))?.(args);
}
