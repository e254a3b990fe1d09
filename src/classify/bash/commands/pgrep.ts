/**
 * pgrep: it lists the processes whose name or command line matches. Unlike pkill it sends no signal (its
 * `--signal` is pkill's, and is not taken here); `-F` names a pid file it reads. The operand is a pattern.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const pgrep: ReadOnlyCommand = {
	options: opts(
		"-a --list-full",
		"-c --count",
		"-d= --delimiter=",
		"-f --full",
		"-g= --pgroup=",
		"-G= --group=",
		"-i --ignore-case",
		"-l --list-name",
		"-n --newest",
		"-o --oldest",
		"-O= --older=",
		"-P= --parent=",
		"-s= --session=",
		"-t= --terminal=",
		"-u= --euid=",
		"-U= --uid=",
		"-v --inverse",
		"-w --lightweight",
		"-x --exact",
		"-F=@ --pidfile=@",
		"-L --logpidfile",
		"-r= --runstates=",
		"--ns=",
		"--nslist=",
		"-A --ignore-ancestors",
		...HELP,
	),
	operands: text,
};

export const PGREP: CommandSpec = { readOnly: pgrep, paths: { operands: "none", options: pgrep.options } };
