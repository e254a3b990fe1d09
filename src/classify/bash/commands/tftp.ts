/**
 * tftp: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TFTP_TIERS = [...rows("network-egress", ["tftp *"])];

export const TFTP: CommandSpec = { tiers: TFTP_TIERS };
