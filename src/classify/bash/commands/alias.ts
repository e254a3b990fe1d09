/**
 * alias: it changes what a command name runs later (write); each value is shell code, classified now.
 */
import type { BashWord } from "../bash-word.ts";
import { type InnerCommand, tail, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

/** `alias ls='rm -rf x'`: the value runs wherever the alias is used later, so it is classified as code now. */
function unwrapAlias(args: readonly BashWord[]): Unwrapped {
	const inner: InnerCommand[] = [];
	for (const word of args) {
		const equals = word.text.indexOf("=");
		if (equals <= 0) continue;
		inner.push({ kind: "shell", code: [tail(word, equals + 1)], via: "alias" });
	}
	return {
		// Where the alias is used later, another command runs than the one written: not a read.
		self: {
			tier: "write",
			reason: "alias changes what a command name runs (its text is classified on its own)",
		},
		inner,
	};
}

export const ALIAS: CommandSpec = { unwrap: unwrapAlias };
