/**
 * apt-get: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const APT_GET_TIERS = [...rows("privileged", ["apt-get *"])];

export const APT_GET: CommandSpec = { tiers: APT_GET_TIERS };
