/**
 * biome: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BIOME_TIERS = [...rows("write", ["biome *", "biome * --write*", "biome * --apply*"])];

export const BIOME: CommandSpec = { tiers: BIOME_TIERS };
