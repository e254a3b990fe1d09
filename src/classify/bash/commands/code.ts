/**
 * code: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CODE_TIERS = [...rows("write", ["code *"])];

export const CODE: CommandSpec = { tiers: CODE_TIERS };
