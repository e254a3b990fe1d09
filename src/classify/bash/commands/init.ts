/**
 * init: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const INIT_TIERS = [...rows("privileged", ["init *"])];

export const INIT: CommandSpec = { tiers: INIT_TIERS };
