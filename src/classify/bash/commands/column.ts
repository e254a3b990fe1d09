/**
 * column (util-linux): it formats the files it is given into columns. No option runs a program or writes a file;
 * `-r`/`--tree` only shapes the output. One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

const column: ReadOnlyCommand = simpleFilter(
	"-t --table",
	"-s= --separator=",
	"-o= --output-separator=",
	"-c= --output-width=",
	"-x --fillrows",
	"-n= --table-name=",
	"-N= --table-columns=",
	"-l= --table-columns-limit=",
	"-R= --table-right=",
	"-T= --table-truncate=",
	"-W= --table-wrap=",
	"-H= --table-hide=",
	"-O= --table-order=",
	"-E= --table-noextreme=",
	"-d --table-noheadings",
	"-e --table-header-repeat",
	"-J --json",
	"-L --keep-empty-lines",
	"-r= --tree=",
	"-i= --tree-id=",
	"-p= --tree-parent=",
);

export const COLUMN: CommandSpec = { readOnly: column, paths: { operands: "read", options: column.options } };
