/**
 * useradd: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const USERADD_TIERS = [...rows("privileged", ["useradd *"])];

export const USERADD: CommandSpec = { tiers: USERADD_TIERS };
