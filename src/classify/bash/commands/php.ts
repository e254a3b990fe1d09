/**
 * php: `-r` code and the like cannot be analysed (privileged). Read-only only as `--version` alone.
 */
import { interpreter } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const unwrapPhp = interpreter({
	inlineShort: "rBRE",
	inlineLong: [],
	valueShort: "cdfzt",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});

export const PHP: CommandSpec = { readOnly: versionOnly(["-v"]), unwrap: unwrapPhp };
