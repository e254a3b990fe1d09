/**
 * jest: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const JEST_TIERS = [...rows("write", ["jest *"])];

export const JEST: CommandSpec = { tiers: JEST_TIERS };
