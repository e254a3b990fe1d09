/**
 * tmux: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const TMUX_TIERS = [...rows("privileged", ["tmux *"])];

export const TMUX: CommandSpec = { tiers: TMUX_TIERS };
