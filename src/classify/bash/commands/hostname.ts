/**
 * hostname: it prints the host name; given a name, it sets it (privileged).
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, none } from "./read-only-helpers.ts";

const hostname: ReadOnlyCommand = {
	// Not -a/-A/-d/-f/-i: they resolve the name, which asks a DNS server.
	options: opts("-I --all-ip-addresses", "-s --short", ...HELP),
	// `hostname NAME` sets the name.
	operands: none,
};

const HOSTNAME_TIERS = [...rows("privileged", ["hostname *"])];

export const HOSTNAME: CommandSpec = { readOnly: hostname, tiers: HOSTNAME_TIERS };
