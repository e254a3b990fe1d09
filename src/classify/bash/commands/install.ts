/**
 * install: it copies files into place (write), its paths read as cp reads them.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { CP_LIKE_PATHS } from "./cp.ts";

export const INSTALL: CommandSpec = { tiers: rows("write", ["install *"]), paths: CP_LIKE_PATHS };
