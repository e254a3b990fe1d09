import { projectConfigPath, userConfigPath } from "../../policy/config-paths.ts";
import { type AgentMatcher, validateAgentMatcher } from "../agent-matcher.ts";
import { matcherText } from "../agent-rules-scaffold.ts";
import type { CommandSpec } from "../command-spec.ts";
import { success } from "../command-spec.ts";

const NOT_A_BYPASS =
	"Note: allow is not a bypass. It records that you expect this origin; deny rules, tier modes and asks still apply, and a deny entry wins over an allow entry.";
const DENY_EFFECT = "Effect: every tool call from a matching origin is refused, reads included.";

function agentRuleCommand(list: "allow" | "deny"): CommandSpec {
	return {
		name: `agent ${list}`,
		summary:
			list === "allow"
				? "check an origin matcher and print the entry for agentRules.allow"
				: "check an origin matcher and print the entry for agentRules.deny",
		synopsis: "--kind human|subagent|headless|ci [--name NAME]",
		help: `Checks an origin matcher with the config schema and prints the entry to paste under
agentRules.${list} in your config. Never edits a config file: you review and paste it yourself.

Options:
  --kind KIND            human, subagent, headless or ci
  --name NAME            the exact subagent name or CI provider (subagent and ci only); omit to match every
                         name of the kind`,
		options: { kind: { type: "string" }, name: { type: "string" } },
		positionals: { min: 0, max: 0, name: "" },
		async run(input) {
			const matcher = validateAgentMatcher(input.options.string("kind"), input.options.string("name"));
			const entry = matcherText(matcher);
			const snippet = `{\n\t"agentRules": {\n\t\t"${list}": [\n\t\t\t${entry}\n\t\t]\n\t}\n}`;
			const data = { list, matcher: matcherJson(matcher), entry, snippet };
			const text = [
				`pi-permission-hub agent ${list}: valid matcher. Paste this entry into the "agentRules" → "${list}" list of`,
				`${userConfigPath(input.agentDir)} (or of ${projectConfigPath("<project>")}):`,
				"",
				`    ${entry}`,
				"",
				"In context:",
				"",
				snippet.replace(/^/gm, "    "),
				"",
				list === "allow" ? NOT_A_BYPASS : DENY_EFFECT,
			].join("\n");
			return success(data, text);
		},
	};
}

function matcherJson(matcher: AgentMatcher): Record<string, unknown> {
	return matcher.name === undefined ? { kind: matcher.kind } : { kind: matcher.kind, name: matcher.name };
}

export const agentAllowCommand = agentRuleCommand("allow");
export const agentDenyCommand = agentRuleCommand("deny");
