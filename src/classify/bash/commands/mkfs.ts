/**
 * mkfs: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MKFS_TIERS = [...rows("destructive", ["mkfs *"])];

export const MKFS: CommandSpec = { tiers: MKFS_TIERS };
