/**
 * aptitude: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const APTITUDE_TIERS = [...rows("privileged", ["aptitude *"])];

export const APTITUDE: CommandSpec = { tiers: APTITUDE_TIERS };
