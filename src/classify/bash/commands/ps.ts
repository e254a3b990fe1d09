/**
 * ps: it lists processes; only the option letters known to be read-only are proven.
 */
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP, text } from "./read-only-helpers.ts";

const ps: ReadOnlyCommand = {
	options: opts(
		..."AaCcdeFfHjLlMmNrSTtuVvwXxyZ".split("").map((c) => `-${c}`),
		"-C=",
		"-G=",
		"-g=",
		"-O=",
		"-o=",
		"-p= --pid=",
		"--ppid=",
		"-q=",
		"-s= --sid=",
		"-t= --tty=",
		"-U=",
		"-u= --user=",
		"--sort=",
		"--forest",
		"--no-headers --no-heading",
		"--cols= --columns= --width=",
		"--headers",
		...HELP,
	),
	// BSD-style option words without a dash: `ps aux`.
	operands: text,
	check: (parsed) => {
		const bad = parsed.operands.find(
			(operand) => !operand.literal || !/^[aeflmrsuvwxAHSTZ]+$/.test(operand.text),
		);
		return bad === undefined
			? null
			: { tier: "write", reason: `\`${bad.text}\` is not a ps option known to be read-only` };
	},
};

export const PS: CommandSpec = { readOnly: ps };
