/**
 * zcat: it prints the decompressed files it is given (`gzip -dc`). Not `-r`: it would read whole trees, which
 * the paths would have to say. One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const zcat: ReadOnlyCommand = simpleFilter(
	"-f --force",
	"-q --quiet",
	"-v --verbose",
	"-l --list",
	"-t --test",
	"-S= --suffix=",
);

export const ZCAT: CommandSpec = { readOnly: zcat, paths: { operands: "read", options: zcat.options } };
