/**
 * flatpak: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FLATPAK_TIERS = [...rows("privileged", ["flatpak *"])];

export const FLATPAK: CommandSpec = { tiers: FLATPAK_TIERS };
