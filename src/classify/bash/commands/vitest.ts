/**
 * vitest: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const VITEST_TIERS = [...rows("write", ["vitest *"])];

export const VITEST: CommandSpec = { tiers: VITEST_TIERS };
