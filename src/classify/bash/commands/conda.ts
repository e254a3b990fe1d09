/**
 * conda: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CONDA_TIERS = [...rows("network-egress", ["conda *"])];

export const CONDA: CommandSpec = { tiers: CONDA_TIERS };
