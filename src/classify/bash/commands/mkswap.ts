/**
 * mkswap: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MKSWAP_TIERS = [...rows("destructive", ["mkswap *"])];

export const MKSWAP: CommandSpec = { tiers: MKSWAP_TIERS };
