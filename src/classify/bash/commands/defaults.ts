/**
 * defaults: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DEFAULTS_TIERS = [...rows("write", ["defaults write *"])];

export const DEFAULTS: CommandSpec = { tiers: DEFAULTS_TIERS };
