/**
 * telinit: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TELINIT_TIERS = [...rows("privileged", ["telinit *"])];

export const TELINIT: CommandSpec = { tiers: TELINIT_TIERS };
