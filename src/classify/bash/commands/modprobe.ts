/**
 * modprobe: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MODPROBE_TIERS = [...rows("privileged", ["modprobe *"])];

export const MODPROBE: CommandSpec = { tiers: MODPROBE_TIERS };
