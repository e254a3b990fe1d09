/**
 * id: it prints user and group ids.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const id: ReadOnlyCommand = {
	options: opts(
		"-a",
		"-Z --context",
		"-g --group",
		"-G --groups",
		"-n --name",
		"-r --real",
		"-u --user",
		"-z --zero",
		...HELP,
	),
	operands: { kind: "text", max: 1 },
};

export const ID: CommandSpec = { readOnly: id };
