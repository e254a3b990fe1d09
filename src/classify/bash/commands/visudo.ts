/**
 * visudo: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const VISUDO_TIERS = [...rows("privileged", ["visudo *"])];

export const VISUDO: CommandSpec = { tiers: VISUDO_TIERS };
