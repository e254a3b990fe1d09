/**
 * userdel: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const USERDEL_TIERS = [...rows("privileged", ["userdel *"])];

export const USERDEL: CommandSpec = { tiers: USERDEL_TIERS };
