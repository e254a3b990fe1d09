/**
 * groupadd: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GROUPADD_TIERS = [...rows("privileged", ["groupadd *"])];

export const GROUPADD: CommandSpec = { tiers: GROUPADD_TIERS };
