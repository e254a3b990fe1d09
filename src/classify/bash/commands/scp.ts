/**
 * scp: it copies to or from another machine (network-egress); its local operands are read, the last one written
 * when it is local. It takes ssh's options, with ssh's raise for those that run a local command.
 */
import { copyToHost } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { refineSsh } from "./ssh.ts";

export const SCP: CommandSpec = {
	tiers: rows("network-egress", ["scp *"]),
	refine: refineSsh,
	extractPaths: copyToHost(valueTaking(opts("-P=", "-i=", "-F=", "-o=", "-c=", "-l=", "-S=", "-J="))),
};
