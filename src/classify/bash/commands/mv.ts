/**
 * mv: it moves its operands to the last one (or into `-t DIR`): the sources are written (they go away), and so is
 * the target. At write it writes nothing but those paths unless a backup is made (`-S`, `-b`) or a long option
 * is not listed below or abbreviated. It lands its source trees at the destination (adr/0014).
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { longOptionsAmong } from "./read-only-helpers.ts";

/** mv's long options that write nothing but the paths it is given. */
const ONLY_PATHS_LONG = new Set([
	"--force",
	"--interactive",
	"--no-clobber",
	"--update",
	"--verbose",
	"--target-directory",
	"--no-target-directory",
	"--strip-trailing-slashes",
]);

export const MV: CommandSpec = {
	tiers: rows("write", ["mv *"]),
	paths: { operands: "write", options: opts("-S=", "--suffix=", "-t=>", "--target-directory=>") },
	writesOnlyItsPaths: (args) =>
		!args.some((arg) => /^-[^-]*[Sb]/.test(arg)) && longOptionsAmong(ONLY_PATHS_LONG, args),
	landsSourcesAtDestination: true,
};
