/**
 * pkill: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PKILL_TIERS = [...rows("write", ["pkill *"])];

export const PKILL: CommandSpec = { tiers: PKILL_TIERS };
