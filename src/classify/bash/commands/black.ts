/**
 * black: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const BLACK_TIERS = [...rows("write", ["black *"])];

export const BLACK: CommandSpec = { tiers: BLACK_TIERS };
