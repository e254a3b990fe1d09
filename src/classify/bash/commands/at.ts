/**
 * at: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const AT_TIERS = [...rows("privileged", ["at *"])];

export const AT: CommandSpec = { tiers: AT_TIERS };
