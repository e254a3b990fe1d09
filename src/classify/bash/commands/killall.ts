/**
 * killall: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const KILLALL_TIERS = [...rows("write", ["killall *"])];

export const KILLALL: CommandSpec = { tiers: KILLALL_TIERS };
