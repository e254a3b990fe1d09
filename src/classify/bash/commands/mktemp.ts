/**
 * mktemp: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MKTEMP_TIERS = [...rows("write", ["mktemp *"])];

export const MKTEMP: CommandSpec = { tiers: MKTEMP_TIERS };
