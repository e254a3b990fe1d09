/**
 * gzip: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GZIP_TIERS = [...rows("write", ["gzip *"])];

export const GZIP: CommandSpec = { tiers: GZIP_TIERS };
