/**
 * ftp: network-egress: it reaches another machine, and whatever it carries leaves. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const FTP_TIERS = [...rows("network-egress", ["ftp *"])];

export const FTP: CommandSpec = { tiers: FTP_TIERS };
