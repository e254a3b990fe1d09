/**
 * flock: it creates and locks a file (write), then runs the command after it, or `-c` code, classified on its
 * own.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { fromWord } from "../path-spec.ts";
import { argvInner, fromFirstOperand, scanWords, type Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

/** flock's options that take a value. */
const FLOCK_VALUE = valueTaking(opts("-w= --timeout= --wait=", "-E= --conflict-exit-code="));

function unwrapFlock(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWords(args, FLOCK_VALUE);
	const [lockFile, next, ...rest] = fromFirstOperand(args, scanned);
	const self: TierRaise = { tier: "write", reason: "flock creates and locks a file" };
	if (lockFile === undefined || /^\d+$/.test(lockFile.text)) return { self, inner: [] };
	const selfPaths = [fromWord(lockFile, "write")];
	if (next === undefined) return { self, selfPaths, inner: [] };
	if (next.text === "-c" || next.text === "--command") {
		const code = rest[0];
		return {
			self,
			selfPaths,
			inner: code === undefined ? [] : [{ kind: "shell", code: [code], via: "flock -c" }],
		};
	}
	return { self, selfPaths, inner: argvInner([next, ...rest], "flock") };
}

export const FLOCK: CommandSpec = { tiers: rows("write", ["flock *"]), unwrap: unwrapFlock };
