/**
 * mocha: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MOCHA_TIERS = [...rows("write", ["mocha *"])];

export const MOCHA: CommandSpec = { tiers: MOCHA_TIERS };
