/**
 * trap: it sets code to run later, on a signal or at exit (write); the code is parsed and classified now.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { fromFirstOperand, scanWords, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

function unwrapTrap(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWords(args, new Set());
	const operands = fromFirstOperand(args, scanned);
	const action = operands[0];
	const self: TierRaise = {
		tier: "write",
		reason: "trap sets code to run later, on a signal or at exit (the code is classified on its own)",
	};
	if (action === undefined || operands.length < 2 || action.text === "-" || action.text === "") {
		return { self, inner: [] };
	}
	return { self, inner: [{ kind: "shell", code: [action], via: "trap" }] };
}

export const TRAP: CommandSpec = { unwrap: unwrapTrap };
