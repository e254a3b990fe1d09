/**
 * zypper: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const ZYPPER_TIERS = [...rows("privileged", ["zypper *"])];

export const ZYPPER: CommandSpec = { tiers: ZYPPER_TIERS };
