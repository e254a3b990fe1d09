/**
 * apt: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const APT_TIERS = [...rows("privileged", ["apt *"])];

export const APT: CommandSpec = { tiers: APT_TIERS };
