/**
 * gdisk: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GDISK_TIERS = [...rows("destructive", ["gdisk *"])];

export const GDISK: CommandSpec = { tiers: GDISK_TIERS };
