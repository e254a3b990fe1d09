/**
 * fly: by subcommand, network-egress for `fly *`; spend for `fly deploy *`, `fly scale *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FLY_TIERS = [...rows("network-egress", ["fly *"]), ...rows("spend", ["fly deploy *", "fly scale *"])];

export const FLY: CommandSpec = { tiers: FLY_TIERS };
