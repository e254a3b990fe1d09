/**
 * rsync: a copy, network-egress when an operand is on another host (`host:path`); `--delete` and
 * `--remove-source-files` destroy files, and its ssh options can run a local command. Local operands are read,
 * the last one written.
 */
import type { TierRaise } from "../../tier-raise.ts";
import { copyToHost } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { refineSsh } from "./ssh.ts";

const RSYNC_VALUE = valueTaking(
	opts("-e= --rsh=", "--exclude=", "--include=", "--filter= -f=", "--exclude-from=", "--include-from="),
);

function refineRsync(args: readonly string[]): TierRaise | undefined {
	if (args.some((arg) => /^--(delete|remove-source-files)/.test(arg))) {
		return { tier: "destructive", reason: "rsync --delete removes files at the destination" };
	}
	return refineSsh(args);
}

export const RSYNC: CommandSpec = {
	tiers: rows("network-egress", ["rsync *:*"]),
	refine: refineRsync,
	extractPaths: copyToHost(RSYNC_VALUE),
};
