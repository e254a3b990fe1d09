/**
 * batch: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BATCH_TIERS = [...rows("privileged", ["batch *"])];

export const BATCH: CommandSpec = { tiers: BATCH_TIERS };
