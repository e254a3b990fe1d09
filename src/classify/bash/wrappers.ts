/**
 * Commands that run other commands. Unwrapping finds the inner command (an argv, or shell code to parse) so it
 * is classified and matched on its own; the wrapper may add a floor to it (sudo → privileged, ssh →
 * network-egress) and has a tier of its own. Code that cannot be seen (`source f`, `python -c …`, `bash script`)
 * gives the wrapper the highest tier. Each command says in its file (commands/) how it wraps, with the helpers
 * of wrapper-spec.ts.
 */
import type { BashWord } from "./bash-word.ts";
import { commandSpec } from "./commands/index.ts";
import { unwrapPython } from "./commands/python.ts";
import type { ArgvOptions, Unwrapped } from "./wrapper-spec.ts";

export type { ArgvOptions, Unwrapped };

/** Unwraps `name args…` if it is a wrapper; undefined when it is an ordinary command. */
export function unwrapCommand(name: string, args: readonly BashWord[]): Unwrapped | undefined {
	const registered = commandSpec(name)?.unwrap;
	if (registered !== undefined) return registered(args, name);
	// python3.12 and the like: every python is unwrapped as python is.
	return /^python[0-9.]*$/.test(name) ? unwrapPython(args, name) : undefined;
}
