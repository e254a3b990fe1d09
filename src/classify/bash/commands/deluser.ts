/**
 * deluser: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DELUSER_TIERS = [...rows("privileged", ["deluser *"])];

export const DELUSER: CommandSpec = { tiers: DELUSER_TIERS };
