/** sftp: it reaches another machine (network-egress); it takes ssh's options that run a local command. */
import { type CommandSpec, rows } from "./command-spec.ts";
import { refineSsh } from "./ssh.ts";

export const SFTP: CommandSpec = { tiers: rows("network-egress", ["sftp *"]), refine: refineSsh };
