/**
 * ln: it makes links (write): another name for a file, which a later write goes through; its paths read as cp reads them.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { CP_LIKE_PATHS } from "./cp.ts";

export const LN: CommandSpec = { tiers: rows("write", ["ln *"]), paths: CP_LIKE_PATHS };
