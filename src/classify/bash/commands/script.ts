/**
 * script: it records a terminal session to a file (write); `-c CODE` runs the code, classified on its own;
 * without it, a shell reads standard input (privileged).
 */
import type { BashWord } from "../bash-word.ts";
import { valueSet } from "../option-scan.ts";
import { scanWords, stdinProgram, tailAfter, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

/** `script -c 'cmd' log`: runs the command in a recorded terminal; without `-c` it starts a shell. */
function unwrapScript(args: readonly BashWord[], name: string): Unwrapped {
	const scanned = scanWords(
		args,
		valueSet("-c", "--command", "-E", "--echo", "-T", "--log-timing", "-I", "-O"),
		false,
	);
	const command = scanned.options.find((option) => option.name === "-c" || option.name === "--command");
	if (command === undefined) return stdinProgram(name);
	const word =
		command.valueIndex !== undefined
			? args[command.valueIndex]
			: tailAfter(args[command.index], command.value ?? "");
	return {
		self: { tier: "write", reason: "script records a terminal session to a file" },
		inner: word === undefined ? [] : [{ kind: "shell", code: [word], via: "script -c" }],
	};
}

export const SCRIPT: CommandSpec = { unwrap: unwrapScript };
