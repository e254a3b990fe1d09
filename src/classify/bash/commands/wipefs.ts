/**
 * wipefs: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const WIPEFS_TIERS = [...rows("destructive", ["wipefs *"])];

export const WIPEFS: CommandSpec = { tiers: WIPEFS_TIERS };
