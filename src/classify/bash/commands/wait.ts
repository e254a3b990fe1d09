/**
 * wait: it waits for the shell's jobs.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { text } from "./read-only-helpers.ts";

export const WAIT: CommandSpec = {
	readOnly: { options: opts("-n", "-f"), operands: text, optionsFirst: true },
};
