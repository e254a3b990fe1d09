/**
 * source (and `.`): it runs a script file in this shell, whose commands cannot be seen: privileged. The file is
 * a path it reads.
 */
import type { BashWord } from "../bash-word.ts";
import { fromWord } from "../path-spec.ts";
import type { Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

function unwrapSource(args: readonly BashWord[], name: string): Unwrapped {
	const file = args[0];
	return {
		self: { tier: "privileged", reason: `${name} runs a script file whose commands cannot be seen` },
		selfPaths: file === undefined ? [] : [fromWord(file, "read")],
		inner: [],
	};
}

export const SOURCE: CommandSpec = {
	tiers: rows("privileged", ["source *"]),
	paths: { operands: "read" },
	unwrap: unwrapSource,
};

/** `.`: source under its POSIX name. */
export const DOT: CommandSpec = { ...SOURCE, tiers: rows("privileged", [". *"]) };
