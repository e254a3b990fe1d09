/**
 * unlink: it removes the file it is given (destructive), and nothing else.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

export const UNLINK: CommandSpec = {
	tiers: rows("destructive", ["unlink *"]),
	paths: { operands: "write" },
	removesOnlyItsPaths: true,
};
