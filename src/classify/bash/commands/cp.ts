/**
 * cp: it writes its last operand (or `-t DIR`) from the others. At write it writes nothing but those paths,
 * unless an option makes another name: a backup built from a suffix (`-S`, `-b`), a link to the source (`-l`,
 * `-s`), or a long option not listed below or abbreviated (getopt_long accepts `--t=DIR`). It lands its source
 * trees at the destination, so a copied git directory guards the copy (adr/0014). install and ln read their
 * paths the same way.
 */
import type { PathSpec } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { longOptionsAmong } from "./read-only-helpers.ts";

/** cp's paths; install and ln take the same. */
export const CP_LIKE_PATHS: PathSpec = {
	operands: "last-write",
	targetOptions: ["-t", "--target-directory"],
	options: opts(
		"-S=",
		"--suffix=",
		"-m=",
		"--mode=",
		"-o=",
		"--owner=",
		"-g=",
		"--group=",
		"-t=>",
		"--target-directory=>",
	),
};

/**
 * cp's long options that write nothing but the paths it is given. Not here: `--backup`/`--suffix` (a name built
 * from a suffix), `--parents` (a path below the target), `--link`/`--symbolic-link` (another name for the source,
 * which a later write goes through).
 */
const ONLY_PATHS_LONG = new Set([
	"--archive",
	"--force",
	"--interactive",
	"--no-clobber",
	"--no-dereference",
	"--dereference",
	"--preserve",
	"--no-preserve",
	"--recursive",
	"--reflink",
	"--remove-destination",
	"--sparse",
	"--update",
	"--verbose",
	"--target-directory",
	"--no-target-directory",
	"--strip-trailing-slashes",
]);

export const CP: CommandSpec = {
	tiers: rows("write", ["cp *"]),
	paths: CP_LIKE_PATHS,
	// A second name for the source (`.git/config`, or `../../u/.bashrc` once moved up): a later write to it in
	// the same call (`cp c x`, a redirect) lands in the file it names, which nothing classified.
	writesOnlyItsPaths: (args) =>
		!args.some((arg) => /^-[^-]*[Sbls]/.test(arg)) && longOptionsAmong(ONLY_PATHS_LONG, args),
	landsSourcesAtDestination: true,
};
