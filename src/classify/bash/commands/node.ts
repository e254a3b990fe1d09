/**
 * node (and nodejs): `-e`/`-p` code and a program on standard input cannot be analysed (privileged). Read-only
 * only as `--version` alone.
 */
import { interpreter } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const unwrapNode = interpreter({
	inlineShort: "ep",
	inlineLong: ["--eval", "--print"],
	valueShort: "rC",
	attachedShort: "",
	valueLong: [
		"--require",
		"--import",
		"--loader",
		"--experimental-loader",
		"--input-type",
		"--conditions",
		"--env-file",
	],
	runsNamed: "",
	readsStdinWithoutScript: true,
	info: ["--version", "-v", "--help", "-h"],
});

export const NODE: CommandSpec = { readOnly: versionOnly(["-v"]), unwrap: unwrapNode };

/** nodejs: node under Debian's name (never proven read). */
export const NODEJS: CommandSpec = { unwrap: unwrapNode };
