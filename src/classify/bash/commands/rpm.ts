/**
 * rpm: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const RPM_TIERS = [...rows("privileged", ["rpm *"])];

export const RPM: CommandSpec = { tiers: RPM_TIERS };
