/**
 * setcap: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SETCAP_TIERS = [...rows("privileged", ["setcap *"])];

export const SETCAP: CommandSpec = { tiers: SETCAP_TIERS };
