/**
 * csrutil: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CSRUTIL_TIERS = [...rows("privileged", ["csrutil *"])];

export const CSRUTIL: CommandSpec = { tiers: CSRUTIL_TIERS };
