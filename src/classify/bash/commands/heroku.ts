/**
 * heroku: by subcommand, network-egress for `heroku *`; spend for `heroku create *`, `heroku ps:scale *`. Never
 * proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HEROKU_TIERS = [
	...rows("network-egress", ["heroku *"]),
	...rows("spend", ["heroku create *", "heroku ps:scale *"]),
];

export const HEROKU: CommandSpec = { tiers: HEROKU_TIERS };
