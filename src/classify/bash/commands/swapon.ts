/**
 * swapon: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SWAPON_TIERS = [...rows("privileged", ["swapon *"])];

export const SWAPON: CommandSpec = { tiers: SWAPON_TIERS };
