/**
 * nsenter: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NSENTER_TIERS = [...rows("privileged", ["nsenter *"])];

export const NSENTER: CommandSpec = { tiers: NSENTER_TIERS };
