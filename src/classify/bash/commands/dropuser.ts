/**
 * dropuser: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DROPUSER_TIERS = [...rows("destructive", ["dropuser *"])];

export const DROPUSER: CommandSpec = { tiers: DROPUSER_TIERS };
