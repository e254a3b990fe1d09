/**
 * shred: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const SHRED_TIERS = [...rows("destructive", ["shred *"])];

export const SHRED: CommandSpec = {
	tiers: SHRED_TIERS,
	paths: { operands: "write", options: opts("-n=", "-s=", "--iterations=", "--size=", "--random-source=") },
};
