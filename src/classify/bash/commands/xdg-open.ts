/**
 * xdg-open: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const XDG_OPEN_TIERS = [...rows("write", ["xdg-open *"])];

export const XDG_OPEN: CommandSpec = { tiers: XDG_OPEN_TIERS };
