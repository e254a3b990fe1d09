/**
 * chattr: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CHATTR_TIERS = [...rows("privileged", ["chattr *"])];

export const CHATTR: CommandSpec = { tiers: CHATTR_TIERS, paths: { operands: "write", skipLeading: 1 } };
