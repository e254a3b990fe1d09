/** ag (the silver searcher): never proven read; its paths are grep-like (the first operand is the pattern). */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const AG: CommandSpec = {
	paths: {
		operands: "read",
		skipLeading: 1,
		leadingSuppliedBy: ["-e", "--regexp", "-f", "--file"],
		options: opts(
			"-e= --regexp=",
			"-A= --after-context=",
			"-B= --before-context=",
			"-C= --context=",
			"-m= --max-count=",
			"-d=",
			"-D=",
			"--include=",
			"--exclude=",
			"--exclude-dir=",
			"--label=",
			"-G= --file-search-regex=",
			"--ignore=",
			"-f=@ --file=@",
			"--exclude-from=@",
		),
	},
};
