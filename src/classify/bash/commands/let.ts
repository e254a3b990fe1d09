/**
 * let: every word is arithmetic, which can run commands through subscripts (privileged).
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const LET_TIERS = [...rows("privileged", ["let *"])];

export const LET: CommandSpec = { tiers: LET_TIERS };
