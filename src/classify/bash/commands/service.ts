/**
 * service: privileged: it acts as another user, on the system configuration, or on processes and devices it does
 * not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const SERVICE_TIERS = [...rows("privileged", ["service *"])];

export const SERVICE: CommandSpec = { tiers: SERVICE_TIERS };
