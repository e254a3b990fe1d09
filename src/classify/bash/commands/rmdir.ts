/**
 * rmdir: it removes the empty directories it is given (destructive), and nothing else.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

export const RMDIR: CommandSpec = {
	tiers: rows("destructive", ["rmdir *"]),
	paths: { operands: "write" },
	removesOnlyItsPaths: true,
};
