/**
 * ss (iproute2): it lists the sockets the kernel reports. Only the listing options are taken: not `-K`/`--kill`
 * (it closes sockets), `-D`/`--diag` (it writes a dump to a file), `-N`/`--net` (another network namespace) or
 * `-F`/`--filter` (a filter file). The operands are a filter expression (`state established '( dport = :ssh )'`).
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const ss: ReadOnlyCommand = {
	options: opts(
		"-a --all",
		"-l --listening",
		"-n --numeric",
		"-r --resolve",
		"-t --tcp",
		"-u --udp",
		"-w --raw",
		"-x --unix",
		"-d --dccp",
		"-S --sctp",
		"-4 --ipv4",
		"-6 --ipv6",
		"-0 --packet",
		"-p --processes",
		"-e --extended",
		"-m --memory",
		"-o --options",
		"-i --info",
		"-s --summary",
		"-H --no-header",
		"-O --oneline",
		"-f= --family=",
		"-A= --query= --socket=",
		...HELP,
	),
	operands: text,
};

export const SS: CommandSpec = { readOnly: ss };
