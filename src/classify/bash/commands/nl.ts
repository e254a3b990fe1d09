/**
 * nl: it numbers the lines of the files it is given.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const nl: ReadOnlyCommand = simpleFilter(
	"-b= --body-numbering=",
	"-d= --section-delimiter=",
	"-f= --footer-numbering=",
	"-h= --header-numbering=",
	"-i= --line-increment=",
	"-l= --join-blank-lines=",
	"-n= --number-format=",
	"-p --no-renumber",
	"-s= --number-separator=",
	"-v= --starting-line-number=",
	"-w= --number-width=",
);

export const NL: CommandSpec = {
	readOnly: nl,
	paths: { operands: "read", options: nl.options },
};
