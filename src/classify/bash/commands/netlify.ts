/**
 * netlify: by subcommand, network-egress for `netlify *`; spend for `netlify deploy *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const NETLIFY_TIERS = [...rows("network-egress", ["netlify *"]), ...rows("spend", ["netlify deploy *"])];

export const NETLIFY: CommandSpec = { tiers: NETLIFY_TIERS };
