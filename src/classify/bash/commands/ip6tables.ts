/**
 * ip6tables: privileged: it acts as another user, on the system configuration, or on processes and devices it
 * does not own. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const IP6TABLES_TIERS = [...rows("privileged", ["ip6tables *"])];

export const IP6TABLES: CommandSpec = { tiers: IP6TABLES_TIERS };
