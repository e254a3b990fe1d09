/**
 * ruby: `-e` code and a program on standard input cannot be analysed (privileged). Read-only only as `--version`
 * alone.
 */
import { interpreter } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const unwrapRuby = interpreter({
	inlineShort: "e",
	inlineLong: [],
	valueShort: "rICE",
	attachedShort: "FKWTx0i",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "--help", "-h"],
});

export const RUBY: CommandSpec = { readOnly: versionOnly([]), unwrap: unwrapRuby };
