/**
 * hostnamectl: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const HOSTNAMECTL_TIERS = [...rows("privileged", ["hostnamectl *"])];

export const HOSTNAMECTL: CommandSpec = { tiers: HOSTNAMECTL_TIERS };
