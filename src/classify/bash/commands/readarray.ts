/**
 * readarray: mapfile under its other name.
 */
import type { CommandSpec } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

export const READARRAY: CommandSpec = { refine: refineNameTaking };
