/**
 * security: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SECURITY_TIERS = [...rows("privileged", ["security *"])];

export const SECURITY: CommandSpec = { tiers: SECURITY_TIERS };
