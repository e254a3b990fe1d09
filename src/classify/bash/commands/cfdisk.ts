/**
 * cfdisk: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CFDISK_TIERS = [...rows("destructive", ["cfdisk *"])];

export const CFDISK: CommandSpec = { tiers: CFDISK_TIERS };
