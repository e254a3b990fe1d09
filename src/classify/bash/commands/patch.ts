/**
 * patch: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PATCH_TIERS = [...rows("write", ["patch *"])];

export const PATCH: CommandSpec = { tiers: PATCH_TIERS };
