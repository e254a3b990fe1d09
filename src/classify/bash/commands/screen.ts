/**
 * screen: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SCREEN_TIERS = [...rows("privileged", ["screen *"])];

export const SCREEN: CommandSpec = { tiers: SCREEN_TIERS };
