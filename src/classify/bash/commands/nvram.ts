/**
 * nvram: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NVRAM_TIERS = [...rows("privileged", ["nvram *"])];

export const NVRAM: CommandSpec = { tiers: NVRAM_TIERS };
