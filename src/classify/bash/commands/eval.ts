/** eval: its words, joined, are shell code, parsed and classified on their own; neutral itself. */
import type { BashWord } from "../bash-word.ts";
import { NEUTRAL, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

function evalBuiltin(args: readonly BashWord[]): Unwrapped {
	return { self: NEUTRAL, inner: args.length === 0 ? [] : [{ kind: "shell", code: args, via: "eval" }] };
}

export const EVAL: CommandSpec = { unwrap: evalBuiltin };
