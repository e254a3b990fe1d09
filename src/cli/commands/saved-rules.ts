/**
 * `rules list` and `rules remove`: the rules a human saved from a dialog ("Always allow" / "Always deny",
 * adr/0018), as they stand in the user config. Removing one edits the file the way saving did: in place,
 * validated, atomically; the gates in running sessions see the change on their next call.
 */

import { readConfigFile } from "../../policy/config-file.ts";
import { userConfigPath } from "../../policy/config-paths.ts";
import type { ConfigRule } from "../../policy/config-schema.ts";
import { removeSavedRule, savedRulesOf } from "../../policy/saved-rules.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { CliError, type CommandSpec, usageError } from "../command.ts";
import { displayLine, plural } from "../display-text.ts";

export const rulesListCommand: CommandSpec = {
	name: "rules list",
	summary: "list the rules saved from dialogs (Always allow / Always deny)",
	synopsis: "",
	help: `Lists the rules saved from a dialog's "Always allow" and "Always deny" answers, as they stand in the
user config (<agent dir>/pi-permission-hub/config.json), each with the index \`rules remove\` takes.`,
	options: {},
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const file = userConfigPath(input.agentDir);
		const saved = savedRules(file);
		const data = { file, rules: saved.map(({ index, rule }) => ({ index, ...rule })) };
		if (saved.length === 0) return { exitCode: 0, data, text: `No saved rules in ${file}.` };
		const lines = [
			`${plural(saved.length, "saved rule")} in ${file}:`,
			...saved.map(({ index, rule }) => `  [${index}] ${describeRule(rule)}`),
		];
		return { exitCode: 0, data, text: lines.join("\n") };
	},
};

export const rulesRemoveCommand: CommandSpec = {
	name: "rules remove",
	summary: "remove a saved rule by the index `rules list` shows",
	synopsis: "<index>",
	help: `Removes the saved rule at <index> (as \`rules list\` shows it) from the user config, keeping the
file's comments and layout. Only a saved rule can be removed this way; edit the file for the others.`,
	options: {},
	positionals: { min: 1, max: 1, name: "the rule's index" },
	async run(input) {
		const [given] = input.args;
		const index = Number(given);
		if (!Number.isSafeInteger(index) || index < 0 || String(index) !== given) {
			throw usageError(`the index must be a whole number, as \`rules list\` shows it (got "${given}")`);
		}
		const file = userConfigPath(input.agentDir);
		const target = savedRules(file).find((entry) => entry.index === index);
		if (target === undefined) {
			throw new CliError("no_match", `rules[${index}] in ${file} is not a saved rule; see \`rules list\``);
		}
		try {
			await removeSavedRule({ file, index, pattern: target.rule.pattern, saved: target.saved });
		} catch (error) {
			throw new CliError("io", errorMessage(error));
		}
		const text = `Removed rules[${index}] from ${file}: ${describeRule(target.rule)}`;
		return { exitCode: 0, data: { file, removed: { index, ...target.rule } }, text };
	},
};

function savedRules(file: string): ReturnType<typeof savedRulesOf> {
	const state = readConfigFile(file, "user");
	if (state.status === "missing") return [];
	if (state.status === "invalid") throw new CliError("config_invalid", state.error.message);
	return savedRulesOf(state);
}

function describeRule(rule: ConfigRule): string {
	const where = rule.directory === undefined ? "everywhere" : `in ${rule.directory}`;
	const limit =
		rule.maxTier === undefined ? "" : ` (up to ${rule.maxTier}${rule.insideCwd ? ", inside the cwd" : ""})`;
	return displayLine(
		`${rule.action} ${rule.surface} "${rule.pattern}" ${where}${limit}, saved ${rule.saved}`,
		1000,
	);
}
