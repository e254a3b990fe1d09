/**
 * xz: write: it changes files or local state in a way a human can notice and undo. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const XZ_TIERS = [...rows("write", ["xz *"])];

export const XZ: CommandSpec = { tiers: XZ_TIERS };
