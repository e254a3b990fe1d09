/**
 * vim: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const VIM_TIERS = [...rows("write", ["vim *"])];

export const VIM: CommandSpec = { tiers: VIM_TIERS };
