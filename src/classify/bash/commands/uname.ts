/**
 * uname: it prints what the system is.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, none } from "./read-only-helpers.ts";

const uname: ReadOnlyCommand = {
	options: opts(
		"-a --all",
		"-s --kernel-name",
		"-n --nodename",
		"-r --kernel-release",
		"-v --kernel-version",
		"-m --machine",
		"-p --processor",
		"-i --hardware-platform",
		"-o --operating-system",
		...HELP,
	),
	operands: none,
};

export const UNAME: CommandSpec = { readOnly: uname };
