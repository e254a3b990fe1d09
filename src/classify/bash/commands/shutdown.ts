/**
 * shutdown: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SHUTDOWN_TIERS = [...rows("privileged", ["shutdown *"])];

export const SHUTDOWN: CommandSpec = { tiers: SHUTDOWN_TIERS };
