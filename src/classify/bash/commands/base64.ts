/**
 * base64: it encodes or decodes the file it is given to standard output.
 * One option list serves the read proof and the paths.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

const base64: ReadOnlyCommand = {
	options: opts("-d --decode", "-i --ignore-garbage", "-w= --wrap=", ...HELP),
	operands: { kind: "files", max: 1 },
};

export const BASE64: CommandSpec = {
	readOnly: base64,
	paths: { operands: "read", options: base64.options },
};
