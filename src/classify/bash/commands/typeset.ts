/**
 * typeset: declare under its other name.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

const TYPESET_TIERS = [...rows("privileged", ["typeset -i*"])];

export const TYPESET: CommandSpec = { tiers: TYPESET_TIERS, refine: refineNameTaking };
