/**
 * touch: it creates files or changes their times: it writes nothing but the files it is given.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const TOUCH: CommandSpec = {
	tiers: rows("write", ["touch *"]),
	paths: { operands: "write", options: opts("-d=", "-t=", "--date=", "-r=@", "--reference=@") },
	writesOnlyItsPaths: () => true,
};
