/**
 * sfdisk: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SFDISK_TIERS = [...rows("destructive", ["sfdisk *"])];

export const SFDISK: CommandSpec = { tiers: SFDISK_TIERS };
