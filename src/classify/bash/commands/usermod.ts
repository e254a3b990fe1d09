/**
 * usermod: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const USERMOD_TIERS = [...rows("privileged", ["usermod *"])];

export const USERMOD: CommandSpec = { tiers: USERMOD_TIERS };
