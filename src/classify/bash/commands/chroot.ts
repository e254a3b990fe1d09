/**
 * chroot: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const CHROOT_TIERS = [...rows("privileged", ["chroot *"])];

export const CHROOT: CommandSpec = { tiers: CHROOT_TIERS };
