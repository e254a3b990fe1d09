/**
 * pytest: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const PYTEST_TIERS = [...rows("write", ["pytest *"])];

export const PYTEST: CommandSpec = { tiers: PYTEST_TIERS };
