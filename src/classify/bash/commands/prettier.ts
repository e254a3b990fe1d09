/**
 * prettier: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PRETTIER_TIERS = [...rows("write", ["prettier *"])];

export const PRETTIER: CommandSpec = { tiers: PRETTIER_TIERS };
