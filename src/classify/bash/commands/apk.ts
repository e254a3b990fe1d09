/**
 * apk: privileged: it acts as another user, on the system configuration, or on processes and devices it does not
 * own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const APK_TIERS = [...rows("privileged", ["apk *"])];

export const APK: CommandSpec = { tiers: APK_TIERS };
