/**
 * gunzip: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const GUNZIP_TIERS = [...rows("write", ["gunzip *"])];

export const GUNZIP: CommandSpec = { tiers: GUNZIP_TIERS };
