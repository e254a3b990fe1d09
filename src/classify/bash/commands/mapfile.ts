/**
 * mapfile: the builtin; a subscript in the array name is evaluated as arithmetic (refineNameTaking).
 */
import type { CommandSpec } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

export const MAPFILE: CommandSpec = { refine: refineNameTaking };
