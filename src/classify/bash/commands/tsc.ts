/**
 * tsc: write: it changes files or local state in a way a human can notice and undo. Read-only only as
 * `--version` or `--help` alone.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const TSC_TIERS = [...rows("write", ["tsc *"])];

export const TSC: CommandSpec = { readOnly: versionOnly(["-v"]), tiers: TSC_TIERS };
