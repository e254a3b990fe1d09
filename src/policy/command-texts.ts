import type { CommandUnit } from "../classify/action.ts";

/**
 * Every spelling a deny, ask or tier-raising `command` pattern is tried against: the command text, the same
 * with the command word reduced to its basename (`/bin/rm -rf x` → `rm -rf x`), and the text behind each
 * plain-word wrapper it was unwrapped from (`sudo rm -rf x`). Allow rules and grants see only the text itself:
 * widening is safe only in the strict direction.
 */
export function strictCommandTexts(unit: CommandUnit): string[] {
	const texts = [unit.text];
	const word = unit.argv[0];
	if (word !== undefined && word !== unit.name && unit.text.startsWith(word)) {
		texts.push(`${unit.name}${unit.text.slice(word.length)}`);
	}
	const wrappers = unit.via.filter((wrapper) => PLAIN_WORD.test(wrapper));
	for (let from = wrappers.length - 1; from >= 0; from--) {
		texts.push(`${wrappers.slice(from).join(" ")} ${unit.text}`);
	}
	return texts;
}

/** `sudo`, `env FOO=1`, `/usr/bin/time` — not constructs such as `$(…)` or `<(…)`. */
const PLAIN_WORD = /^[\w./+-][\w./+= -]*$/;
