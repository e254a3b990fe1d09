/**
 * false: it does nothing, unsuccessfully.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const FALSE: CommandSpec = { readOnly: inert };
