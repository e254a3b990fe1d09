/**
 * perl: `-e` code and a program on standard input cannot be analysed (privileged). Read-only only as `--version`
 * alone.
 */
import { interpreter } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const unwrapPerl = interpreter({
	inlineShort: "eE",
	inlineLong: [],
	valueShort: "",
	attachedShort: "MmIixdDl0C",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "-v", "--help", "-h"],
});

export const PERL: CommandSpec = { readOnly: versionOnly(["-v"]), unwrap: unwrapPerl };
