/**
 * dropdb: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DROPDB_TIERS = [...rows("destructive", ["dropdb *"])];

export const DROPDB: CommandSpec = { tiers: DROPDB_TIERS };
