/** What the builtins that take variable names share (unset, read, declare, …). */
import type { TierRaise } from "../../tier-raise.ts";

/**
 * Builtins that take variable names (`unset`, `read`, `printf -v`, `declare` …) evaluate an array subscript in a
 * name as arithmetic, and `a[$(cmd)]` there runs cmd: a name with any subscript but a number, `@` or `*` is code.
 */
export function refineNameTaking(args: readonly string[]): TierRaise | undefined {
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
