/**
 * timedatectl: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TIMEDATECTL_TIERS = [...rows("privileged", ["timedatectl *"])];

export const TIMEDATECTL: CommandSpec = { tiers: TIMEDATECTL_TIERS };
