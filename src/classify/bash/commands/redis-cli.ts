/**
 * redis-cli: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const REDIS_CLI_TIERS = [...rows("destructive", ["redis-cli flushall*", "redis-cli flushdb*"])];

export const REDIS_CLI: CommandSpec = { tiers: REDIS_CLI_TIERS };
