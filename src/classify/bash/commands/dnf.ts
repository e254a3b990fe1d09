/**
 * dnf: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DNF_TIERS = [...rows("privileged", ["dnf *"])];

export const DNF: CommandSpec = { tiers: DNF_TIERS };
