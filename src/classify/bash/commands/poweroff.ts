/**
 * poweroff: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const POWEROFF_TIERS = [...rows("privileged", ["poweroff *"])];

export const POWEROFF: CommandSpec = { tiers: POWEROFF_TIERS };
