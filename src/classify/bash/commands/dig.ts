/**
 * dig: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DIG_TIERS = [...rows("network-egress", ["dig *"])];

export const DIG: CommandSpec = { tiers: DIG_TIERS };
