/**
 * Run by the saved-rules tests as a separate node process (real concurrent sessions saving into one config).
 * argv: <file> <writerId> <count>: saves `touch <writerId>-<n>` rules one after another.
 */
import { addRules, rulesToSave } from "../../src/policy/saved-rules.ts";

const [file, writerId, count] = process.argv.slice(2);
if (file === undefined || writerId === undefined)
	throw new Error("usage: save-rules-child <file> <id> <count>");
for (let n = 0; n < Number(count); n++) {
	await addRules(
		file,
		rulesToSave({
			verdict: "allow",
			directory: null,
			patterns: [
				{
					surface: "command",
					pattern: `touch ${writerId}-${n}`,
					limit: { tier: "write", outsideCwd: false },
				},
			],
			savedAt: new Date().toISOString(),
		}),
	);
}
