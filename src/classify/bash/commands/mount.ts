/**
 * mount: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MOUNT_TIERS = [...rows("privileged", ["mount *"])];

export const MOUNT: CommandSpec = { tiers: MOUNT_TIERS };
