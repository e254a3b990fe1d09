/**
 * srm: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SRM_TIERS = [...rows("destructive", ["srm *"])];

export const SRM: CommandSpec = { tiers: SRM_TIERS };
