/**
 * test (and `[`): it compares and prints; its operands are not paths it reads.
 */
import type { BashWord } from "../bash-word.ts";
import type { ReadOnlyCommand, ReadVerdict } from "../read-only-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { text } from "./read-only-helpers.ts";

/**
 * `test` and `[` only compare and print, except that bash evaluates the subscript of a `-v`/`-R` operand as
 * arithmetic (`test -v 'a[$(cmd)]'` runs cmd). A word becomes `-v` at run time too (`${x:--v}`, `"$_"` after
 * `echo -v`), and an unquoted expansion or glob becomes several words (`-v` and `a[$(cmd)]`, from `$_` or from a
 * repository's file names). So: no word may become several, and whatever follows a word that is or may become
 * `-v`/`-R` must be a literal with no subscript but a number.
 */
const testBuiltin: ReadOnlyCommand = {
	options: [],
	operands: text,
	custom: (args) => {
		for (let i = 0; i < args.length; i++) {
			const word = args[i];
			if (word === undefined) continue;
			const computed = !word.literal && !word.cannotBecomeOption;
			if (computed && !isOneQuotedWord(word))
				return refusedTest(`\`${word.text}\` can become several words, among them -v and a subscripted name`);
			if (!computed && word.text !== "-v" && word.text !== "-R") continue;
			const operand = args[i + 1];
			if (operand === undefined) continue;
			if (!operand.literal || !/^[^[]*$|^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$/.test(operand.text))
				return refusedTest(
					`test ${word.text} evaluates the subscript of \`${operand.text}\` as arithmetic, which can run commands`,
				);
		}
		return { read: true, paths: [] };
	},
};

/** `"$x"`, `"${x%y}"`: one double-quoted word, which bash does not split (`"$@"`, `"${a[@]}"` it does). */
function isOneQuotedWord(word: BashWord): boolean {
	return word.node.type === "string" && !/\$\{?[@*]|\[[@*]\]/.test(word.text);
}

function refusedTest(reason: string): ReadVerdict {
	return { read: false, tier: "privileged", reason, paths: [] };
}

export const TEST: CommandSpec = { readOnly: testBuiltin, paths: { operands: "none" } };
