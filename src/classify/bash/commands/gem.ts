/**
 * gem: network-egress: it reaches another machine, and whatever it carries leaves. Read-only only as `--version`
 * or `--help` alone.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const GEM_TIERS = [...rows("network-egress", ["gem *"])];

export const GEM: CommandSpec = { readOnly: versionOnly([]), tiers: GEM_TIERS };
