/**
 * sudoedit: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SUDOEDIT_TIERS = [...rows("privileged", ["sudoedit *"])];

export const SUDOEDIT: CommandSpec = { tiers: SUDOEDIT_TIERS };
