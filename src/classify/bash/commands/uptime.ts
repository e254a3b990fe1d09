/**
 * uptime: it prints how long the system has run.
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, none } from "./read-only-helpers.ts";

export const UPTIME: CommandSpec = {
	readOnly: { options: opts("-p --pretty", "-s --since", ...HELP), operands: none },
};
