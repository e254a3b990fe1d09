/**
 * ufw: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const UFW_TIERS = [...rows("privileged", ["ufw *"])];

export const UFW: CommandSpec = { tiers: UFW_TIERS };
