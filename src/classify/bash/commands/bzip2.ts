/**
 * bzip2: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BZIP2_TIERS = [...rows("write", ["bzip2 *"])];

export const BZIP2: CommandSpec = { tiers: BZIP2_TIERS };
