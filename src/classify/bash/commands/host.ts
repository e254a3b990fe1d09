/**
 * host: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HOST_TIERS = [...rows("network-egress", ["host *"])];

export const HOST: CommandSpec = { tiers: HOST_TIERS };
