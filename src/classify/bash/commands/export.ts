/**
 * export: the builtin; a subscript in a name is evaluated as arithmetic. It is not read-only: what it exports
 * chooses what later commands do.
 */
import type { CommandSpec } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

export const EXPORT: CommandSpec = { refine: refineNameTaking, paths: { operands: "none" } };
