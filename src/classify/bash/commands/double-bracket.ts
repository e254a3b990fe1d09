/**
 * `[[ … ]]`: it only tests; the arithmetic it may do is judged where the walk finds it (bash-walk.ts).
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const DOUBLE_BRACKET: CommandSpec = { readOnly: inert };
