/**
 * chmod: it changes the mode of the files it is given (write; a system path makes it privileged). Its first
 * operand is the mode unless `--reference` gives one, and a dash word that is not one of its own flags is a mode
 * (`chmod -x f`). chown and chgrp read their paths the same way (their first operand is the owner or group).
 */
import type { BashWord } from "../bash-word.ts";
import type { PathSpec } from "../path-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

/** chown's and chgrp's paths. */
export const CHMOD_LIKE_PATHS: PathSpec = {
	operands: "write",
	skipLeading: 1,
	leadingSuppliedBy: ["--reference"],
	options: opts("--from=", "--reference=@"),
};

/** `chmod -x f`: a dash word that is not one of chmod's own flags is the mode, not an option. */
function modeAsOperand(word: BashWord): BashWord {
	return /^-[^-]/.test(word.text) && /[^Rcfvh]/.test(word.text.slice(1))
		? { ...word, text: `mode${word.text}` }
		: word;
}

export const CHMOD: CommandSpec = {
	tiers: rows("write", ["chmod *"]),
	paths: { ...CHMOD_LIKE_PATHS, readAsOperands: modeAsOperand },
};
