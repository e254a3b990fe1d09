/**
 * nano: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NANO_TIERS = [...rows("write", ["nano *"])];

export const NANO: CommandSpec = { tiers: NANO_TIERS };
