/**
 * dscl: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DSCL_TIERS = [...rows("privileged", ["dscl *"])];

export const DSCL: CommandSpec = { tiers: DSCL_TIERS };
