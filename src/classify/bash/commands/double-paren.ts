/**
 * `(( … ))`: arithmetic, judged where the walk finds it (bash-walk.ts).
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const DOUBLE_PAREN: CommandSpec = { readOnly: inert };
