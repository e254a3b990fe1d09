/**
 * sls: spend: it creates or scales billable resources. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SLS_TIERS = [...rows("spend", ["sls deploy *"])];

export const SLS: CommandSpec = { tiers: SLS_TIERS };
