/**
 * flyctl: by subcommand, network-egress for `flyctl *`; spend for `flyctl deploy *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FLYCTL_TIERS = [...rows("network-egress", ["flyctl *"]), ...rows("spend", ["flyctl deploy *"])];

export const FLYCTL: CommandSpec = { tiers: FLYCTL_TIERS };
