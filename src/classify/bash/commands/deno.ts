/**
 * deno: `deno eval` code cannot be analysed (privileged).
 */
import type { BashWord } from "../bash-word.ts";
import { inlineCode, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

function deno(args: readonly BashWord[], name: string): Unwrapped | undefined {
	return args[0]?.text === "eval" ? inlineCode(name) : undefined;
}

export const DENO: CommandSpec = { unwrap: deno };
