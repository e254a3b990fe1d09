/**
 * sudo: it runs a command as another user (privileged, and so is the command); `sudo -e` edits the files it
 * names. Its options that take a value are known, so the command after them is found.
 */
import { asUser } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

export const SUDO: CommandSpec = {
	tiers: rows("privileged", ["sudo *"]),
	unwrap: asUser(
		"sudo",
		valueTaking(
			opts(
				"sudo=",
				"-u=",
				"-g=",
				"-C=",
				"-D=",
				"-p=",
				"-r=",
				"-t=",
				"-T=",
				"-U=",
				"-h=",
				"--user=",
				"--group=",
				"--chdir=",
				"--prompt=",
				"--role=",
				"--type=",
				"--close-from=",
				"--other-user=",
				"--host=",
				"--command-timeout=",
			),
		),
	),
};
