/**
 * exec: the builtin replaces the shell with the command it is given (classified on its own); `-a NAME` renames it.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import {
	argvInner,
	fromFirstOperand,
	knownOptions,
	scanWrapper,
	type Unwrapped,
	wrapperSelf,
} from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const EXEC_OPTIONS = knownOptions(opts("-a=", "-c", "-l"));

/**
 * `exec -a NAME cmd` runs cmd under another name, and programs that choose what to do by their name take it:
 * `exec -a git-push git` is `git push`, `exec -a rm busybox` is busybox's rm. Only the command's own name leaves
 * it what it says.
 */
function execBuiltin(args: readonly BashWord[], name: string): Unwrapped {
	const scanned = scanWrapper(args, EXEC_OPTIONS);
	const rest = fromFirstOperand(args, scanned);
	const program = rest[0];
	const renamed = scanned.options.some((option) => {
		if (option.name !== "-a") return false;
		const holder = args[option.valueIndex ?? option.index];
		const own = program === undefined ? "" : program.text.slice(program.text.lastIndexOf("/") + 1);
		return holder?.literal !== true || option.value !== own;
	});
	const floor: TierRaise = {
		tier: "privileged",
		reason:
			"exec -a runs the command under another name, which can make it another program (git-push, busybox rm)",
	};
	return {
		self: wrapperSelf(scanned, EXEC_OPTIONS, name),
		inner: argvInner(rest, name, renamed ? { floor } : {}),
	};
}

export const EXEC: CommandSpec = { unwrap: execBuiltin };
