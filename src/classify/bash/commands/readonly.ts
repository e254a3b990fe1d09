/**
 * readonly: the builtin; a subscript in a name it is given is evaluated as arithmetic (refineNameTaking).
 */
import type { CommandSpec } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

export const READONLY: CommandSpec = { refine: refineNameTaking };
