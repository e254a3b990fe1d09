/**
 * ruff: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const RUFF_TIERS = [...rows("write", ["ruff *"])];

export const RUFF: CommandSpec = { tiers: RUFF_TIERS };
