/**
 * true: it does nothing.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const TRUE: CommandSpec = { readOnly: inert };
