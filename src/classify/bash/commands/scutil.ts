/**
 * scutil: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SCUTIL_TIERS = [...rows("privileged", ["scutil *"])];

export const SCUTIL: CommandSpec = { tiers: SCUTIL_TIERS };
