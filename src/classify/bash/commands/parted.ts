/**
 * parted: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PARTED_TIERS = [...rows("destructive", ["parted *"])];

export const PARTED: CommandSpec = { tiers: PARTED_TIERS };
