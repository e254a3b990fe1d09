/**
 * realpath: it resolves the paths it is given.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { files, HELP } from "./read-only-helpers.ts";

const realpath: ReadOnlyCommand = {
	options: opts(
		"-e --canonicalize-existing",
		"-m --canonicalize-missing",
		"-L --logical",
		"-P --physical",
		"-q --quiet",
		"-s --strip --no-symlinks",
		"-z --zero",
		"--relative-to=@",
		"--relative-base=@",
		...HELP,
	),
	operands: files,
};

export const REALPATH: CommandSpec = {
	readOnly: realpath,
	paths: { operands: "read" },
};
