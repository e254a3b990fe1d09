/**
 * getent: it prints entries of the system's databases (passwd, group, hosts, services, …) through NSS. A
 * `hosts` or `ahosts` lookup may ask the configured name servers, like every name lookup; it sends nothing
 * else. Every operand is a database name or a key.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const getent: ReadOnlyCommand = {
	options: opts("-s= --service=", "-i --no-idn", ...HELP),
	operands: text,
};

export const GETENT: CommandSpec = { readOnly: getent };
