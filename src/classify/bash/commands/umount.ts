/**
 * umount: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const UMOUNT_TIERS = [...rows("privileged", ["umount *"])];

export const UMOUNT: CommandSpec = { tiers: UMOUNT_TIERS };
