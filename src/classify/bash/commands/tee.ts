/**
 * tee: it copies standard input to the files it is given, writing nothing else.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

export const TEE: CommandSpec = {
	tiers: rows("write", ["tee *"]),
	paths: { operands: "write" },
	writesOnlyItsPaths: () => true,
};
