/**
 * ip: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const IP_TIERS = [
	...rows("privileged", [
		"ip * add *",
		"ip * del *",
		"ip * delete *",
		"ip * set *",
		"ip * flush *",
		"ip * change *",
		"ip * replace *",
	]),
];

export const IP: CommandSpec = { tiers: IP_TIERS };
