/**
 * python (python3, and every python3.x): `-c` code and a program on standard input cannot be analysed
 * (privileged); a script or `-m module` runs as a command of its own. Read-only only as `--version` alone.
 */
import { interpreter } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

const unwrapPythonCode = interpreter({
	inlineShort: "c",
	inlineLong: [],
	valueShort: "WX",
	attachedShort: "",
	valueLong: ["--check-hash-based-pycs"],
	runsNamed: "m",
	readsStdinWithoutScript: true,
	info: ["--version", "-V", "--help", "-h"],
});

export const unwrapPython = unwrapPythonCode;

export const PYTHON: CommandSpec = { readOnly: versionOnly(["-V"]), unwrap: unwrapPython };

/** python3: python under its usual name. */
export const PYTHON3: CommandSpec = { readOnly: versionOnly(["-V"]), unwrap: unwrapPython };
