/**
 * ninja: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NINJA_TIERS = [...rows("write", ["ninja *"])];

export const NINJA: CommandSpec = { tiers: NINJA_TIERS };
