/**
 * truncate: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const TRUNCATE_TIERS = [...rows("destructive", ["truncate *"])];

export const TRUNCATE: CommandSpec = {
	tiers: TRUNCATE_TIERS,
	paths: { operands: "write", options: opts("-s=", "--size=", "-r=@", "--reference=@") },
};
