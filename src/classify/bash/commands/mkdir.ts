/**
 * mkdir: it creates directories: it writes nothing but the paths it is given.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const MKDIR: CommandSpec = {
	tiers: rows("write", ["mkdir *"]),
	paths: { operands: "write", options: opts("-m=", "--mode=", "--context=") },
	writesOnlyItsPaths: () => true,
};
