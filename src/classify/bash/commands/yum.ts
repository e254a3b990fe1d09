/**
 * yum: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const YUM_TIERS = [...rows("privileged", ["yum *"])];

export const YUM: CommandSpec = { tiers: YUM_TIERS };
