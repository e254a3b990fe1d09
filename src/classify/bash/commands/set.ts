/**
 * set: only shell options known to change no more than error handling are proven read-only.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { none } from "./read-only-helpers.ts";

/** `set -e`, `set -o pipefail`: options that only change how this shell stops on errors. */
const SAFE_SET_OPTIONS = new Set(["errexit", "nounset", "pipefail", "noclobber", "noglob", "notify"]);

const set: ReadOnlyCommand = {
	options: [
		...opts("-e", "+e", "-u", "+u", "-C", "+C", "-f", "+f", "-b", "+b"),
		{
			names: ["-o", "+o"],
			value: "required",
			check: (value) =>
				SAFE_SET_OPTIONS.has(value)
					? null
					: { tier: "write", reason: `set -o ${value} changes how this shell runs commands` },
		},
	],
	operands: none,
	optionsFirst: true,
	plusOptions: true,
};

export const SET: CommandSpec = { readOnly: set };
