/**
 * pacman: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PACMAN_TIERS = [...rows("privileged", ["pacman *"])];

export const PACMAN: CommandSpec = { tiers: PACMAN_TIERS };
