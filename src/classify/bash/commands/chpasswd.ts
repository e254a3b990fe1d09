/**
 * chpasswd: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CHPASSWD_TIERS = [...rows("privileged", ["chpasswd *"])];

export const CHPASSWD: CommandSpec = { tiers: CHPASSWD_TIERS };
