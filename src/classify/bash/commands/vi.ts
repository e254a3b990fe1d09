/**
 * vi: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const VI_TIERS = [...rows("write", ["vi *"])];

export const VI: CommandSpec = { tiers: VI_TIERS };
