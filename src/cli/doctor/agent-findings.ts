import { delimiter, join } from "node:path";
import { type AgentDefinition, agentDefinitionsIn } from "./agent-definitions.ts";
import { checkChildExtensionList, type ListCheckContext, type ListPlace } from "./child-extension-list.ts";
import type { DoctorInput } from "./doctor-input.ts";
import { type Finding, finding } from "./finding.ts";
import { projectAgentDirs } from "./project-locations.ts";
import type { RootResource } from "./root-resources.ts";
import { agentOverridesOf, type ReadSettings } from "./settings-file.ts";

/** `subagents.agentOverrides.<agent>.extensions` (and per provider) replace an agent's list, or remove it (`false`). */
export function agentOverrides(settings: ReadSettings, ctx: ListCheckContext): Finding[] {
	return agentOverridesOf(settings.settings).flatMap(({ agent, key, override }) => {
		if (override.extensions === undefined) return [];
		const label = `"${key}.extensions"`;
		const place: ListPlace = { file: settings.file, label };
		const extra = override.subagentOnlyExtensions === false ? [] : (override.subagentOnlyExtensions ?? []);
		const list = override.extensions === false ? [] : override.extensions;
		const check = checkChildExtensionList([...list, ...extra], place, ctx);
		if (check.gated) return [...check.warnings];
		const what =
			override.extensions === false
				? `removes the extension list of agent "${agent}", so its children start with none`
				: `replaces the extension list of agent "${agent}" with one that does not load ${ctx.names.gate}`;
		return [
			finding("agent-override-extensions-without-gate", {
				file: settings.file,
				explanation: `${label} in ${settings.file} ${what}: they run ungated.`,
				fix: `list ${ctx.gateEntry === null ? "the gate's directory" : JSON.stringify(ctx.gateEntry)} in ${label} (or remove the override) in ${settings.file}; the doctor does not change overrides`,
			}),
			...check.warnings,
		];
	});
}

/** User, project and pi-subagents' own (builtin) agent definitions. */
export function agentDefinitions(subagents: readonly RootResource[], input: DoctorInput): AgentDefinition[] {
	const { view } = input;
	const extra = (input.env.PI_SUBAGENT_EXTRA_AGENT_DIRS ?? "").split(delimiter).filter((d) => d !== "");
	const dirs: [string, AgentDefinition["scope"]][] = [
		...[join(input.agentDir, "agents"), join(input.homeDir, ".agents"), ...extra].map(
			(d): [string, AgentDefinition["scope"]] => [d, "user"],
		),
		...projectAgentDirs(input.projectDir, view).map((d): [string, AgentDefinition["scope"]] => [
			d,
			"project",
		]),
		...subagents.flatMap((r): [string, AgentDefinition["scope"]][] =>
			r.location === null ? [] : [[join(r.location, "agents"), "builtin"]],
		),
	];
	const seen = new Set<string>();
	return dirs.flatMap(([dir, scope]) => {
		const real = view.realPath(dir);
		if (seen.has(real)) return [];
		seen.add(real);
		return agentDefinitionsIn(dir, scope, view);
	});
}

/** Finding 4: an agent with its own `extensions:` ignores the defaults; no auto-fix (agent files are the user's). */
export function agentFinding(agent: AgentDefinition, ctx: ListCheckContext): Finding[] {
	if (agent.extensions === undefined) return [];
	const place: ListPlace = { file: agent.file, label: `the "extensions:" of agent "${agent.name}"` };
	const check = checkChildExtensionList([...agent.extensions, ...agent.additional], place, ctx);
	if (check.gated) return [...check.warnings];
	return [
		finding("agent-extensions-without-gate", {
			file: agent.file,
			explanation: `Agent "${agent.name}" (${agent.scope}, ${agent.file}) has its own "extensions:", which pi-subagents uses instead of "subagents.defaultExtensions"; it does not load ${ctx.names.gate}, so this agent's children run ungated.`,
			fix: `add ${ctx.gateEntry === null ? "the gate's directory" : JSON.stringify(ctx.gateEntry)} to the "extensions:" (or "subagentOnlyExtensions:") line of ${agent.file}; the doctor does not edit agent files`,
		}),
		...check.warnings,
	];
}
