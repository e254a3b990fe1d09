/**
 * rm: it removes the files it is given (destructive), and nothing else.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

export const RM: CommandSpec = {
	tiers: rows("destructive", ["rm *"]),
	paths: { operands: "write" },
	removesOnlyItsPaths: true,
};
