/**
 * powershell (and pwsh): `-Command`, `-EncodedCommand`, `-c`/`-e` code cannot be analysed (privileged).
 */
import type { BashWord } from "../bash-word.ts";
import { inlineCode, interpreter, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

const unwrapPwsh = interpreter({
	inlineShort: "ce",
	inlineLong: [],
	valueShort: "f",
	attachedShort: "",
	valueLong: [],
	runsNamed: "",
	readsStdinWithoutScript: false,
	info: ["--version", "-v", "--help", "-h"],
});

function powershell(args: readonly BashWord[], name: string): Unwrapped | undefined {
	if (args.some((word) => /^-(c|command|e|encodedcommand|ec)$/i.test(word.text))) return inlineCode(name);
	return unwrapPwsh(args, name);
}

export const POWERSHELL: CommandSpec = { unwrap: powershell };
