/**
 * declare: the builtin; `-i` makes assignments arithmetic (privileged), and a subscript in a name is evaluated.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { refineNameTaking } from "./variable-names.ts";

const DECLARE_TIERS = [...rows("privileged", ["declare -i*"])];

export const DECLARE: CommandSpec = { tiers: DECLARE_TIERS, refine: refineNameTaking };
