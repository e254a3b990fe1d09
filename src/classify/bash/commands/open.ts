/**
 * open: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const OPEN_TIERS = [...rows("write", ["open *"])];

export const OPEN: CommandSpec = { tiers: OPEN_TIERS };
