/**
 * fdisk: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FDISK_TIERS = [...rows("destructive", ["fdisk *"])];

export const FDISK: CommandSpec = { tiers: FDISK_TIERS };
