/**
 * eslint: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const ESLINT_TIERS = [...rows("write", ["eslint *--fix*"])];

export const ESLINT: CommandSpec = { tiers: ESLINT_TIERS };
