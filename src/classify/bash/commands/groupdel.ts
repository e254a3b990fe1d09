/**
 * groupdel: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GROUPDEL_TIERS = [...rows("privileged", ["groupdel *"])];

export const GROUPDEL: CommandSpec = { tiers: GROUPDEL_TIERS };
