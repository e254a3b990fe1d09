/**
 * emacs: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const EMACS_TIERS = [...rows("write", ["emacs *"])];

export const EMACS: CommandSpec = { tiers: EMACS_TIERS };
