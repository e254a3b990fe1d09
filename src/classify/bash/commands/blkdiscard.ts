/**
 * blkdiscard: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BLKDISCARD_TIERS = [...rows("destructive", ["blkdiscard *"])];

export const BLKDISCARD: CommandSpec = { tiers: BLKDISCARD_TIERS };
