/**
 * local: the builtin; `-i` makes assignments arithmetic (privileged), and a subscript in a name is evaluated.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

const LOCAL_TIERS = [...rows("privileged", ["local -i*"])];

export const LOCAL: CommandSpec = { tiers: LOCAL_TIERS, refine: refineNameTaking };
