/**
 * cmake: write: it changes files or local state in a way a human can notice and undo. Read-only only as
 * `--version` or `--help` alone.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const CMAKE_TIERS = [...rows("write", ["cmake *"])];

export const CMAKE: CommandSpec = { readOnly: versionOnly([]), tiers: CMAKE_TIERS };
