/**
 * dpkg: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DPKG_TIERS = [...rows("privileged", ["dpkg *"])];

export const DPKG: CommandSpec = { tiers: DPKG_TIERS };
