/**
 * http: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HTTP_TIERS = [...rows("network-egress", ["http *"])];

export const HTTP: CommandSpec = { tiers: HTTP_TIERS };
