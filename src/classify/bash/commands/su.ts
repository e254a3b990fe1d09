/**
 * su: it runs a shell as another user (privileged); `su -c CODE` runs the code, parsed and classified with that
 * floor.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { scanWords, tailAfter, type Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

/** su's options that take a value. */
const SU_VALUE = valueTaking(
	opts("-c= --command=", "-s= --shell=", "-g= --group=", "-G= --supp-group=", "-w="),
);

function unwrapSu(args: readonly BashWord[]): Unwrapped {
	const floor: TierRaise = { tier: "privileged", reason: "su runs commands as another user" };
	const scanned = scanWords(args, SU_VALUE, false);
	const command = scanned.options.find((option) => option.name === "-c" || option.name === "--command");
	if (command === undefined) return { self: floor, inner: [] };
	const word =
		command.valueIndex !== undefined
			? args[command.valueIndex]
			: tailAfter(args[command.index], command.value ?? "");
	return {
		self: floor,
		inner: word === undefined ? [] : [{ kind: "shell", code: [word], via: "su -c", floor }],
	};
}

export const SU: CommandSpec = { tiers: rows("privileged", ["su *"]), unwrap: unwrapSu };
