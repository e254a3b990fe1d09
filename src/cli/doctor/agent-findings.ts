import {
	type AgentDefinition,
	builtinAgentDirectory,
	projectAgentDirectories,
	projectRootCandidates,
	scanAgentDirectory,
	userAgentDirectories,
} from "../../launchers/agent-definition.ts";
import { childExtensions } from "../../launchers/child-extensions.ts";
import { GATE_PACKAGE_NAME } from "../../launchers/package-manifest.ts";
import { agentOverridesOf, type LoadedSettings } from "../../launchers/pi-settings.ts";
import type { SettingsResource } from "../../launchers/settings-resources.ts";
import {
	checkChildExtensionList,
	type ListCheckContext,
	type ListPlace,
	listLoadsGate,
} from "./child-extension-list.ts";
import type { DoctorInput } from "./doctor-input.ts";
import { type Finding, finding } from "./finding.ts";

export type AgentScope = "user" | "project" | "builtin";

/** An agent definition file of pi-subagents, and which of its directories it was found in. */
export interface ScopedAgent {
	readonly definition: AgentDefinition;
	readonly scope: AgentScope;
}

export interface AgentDefinitions {
	readonly definitions: readonly ScopedAgent[];
	/** Directories whose scan stopped early: an agent in them was not checked. */
	readonly incomplete: readonly string[];
}

/** User, project and pi-subagents' own (builtin) agent definitions. */
export function agentDefinitions(
	subagents: readonly SettingsResource[],
	input: DoctorInput,
): AgentDefinitions {
	const { view } = input;
	const dirs: [string, AgentScope][] = [
		...userAgentDirectories(input.agentDir, input.homeDir, input.env).map((d): [string, AgentScope] => [
			d,
			"user",
		]),
		...projectRootCandidates(input.projectDir, view).flatMap((root) =>
			projectAgentDirectories(root).map((d): [string, AgentScope] => [d, "project"]),
		),
		...subagents.flatMap((r): [string, AgentScope][] =>
			r.location === null ? [] : [[builtinAgentDirectory(r.location), "builtin"]],
		),
	];
	const seen = new Set<string>();
	const definitions: ScopedAgent[] = [];
	const incomplete: string[] = [];
	for (const [dir, scope] of dirs) {
		const real = view.realPath(dir);
		if (real === null || seen.has(real)) continue;
		seen.add(real);
		const scan = scanAgentDirectory(dir, view);
		if (!scan.complete) incomplete.push(dir);
		definitions.push(...scan.definitions.map((definition) => ({ definition, scope })));
	}
	return { definitions, incomplete };
}

/** Agent directories too large to read in full: what is in the rest is not known, so it counts as a problem. */
export function agentScanIncomplete(agents: AgentDefinitions): Finding[] {
	return agents.incomplete.map((dir) =>
		finding("agent-definitions-not-all-read", {
			file: dir,
			explanation: `${dir} holds too many agent files (or one too large) for the doctor to read them all; an agent it did not read may start its children without the gate.`,
			fix: `move what is not an agent definition out of ${dir}, then run the doctor again`,
		}),
	);
}

/**
 * `subagents.agentOverrides.<agent>.extensions` (and per provider) replace an agent's list, or remove it (`false`):
 * a problem when a child of any definition of that agent (or of an agent defined nowhere) would miss the gate.
 */
export function agentOverrides(
	settings: LoadedSettings,
	agents: readonly ScopedAgent[],
	ctx: ListCheckContext,
): Finding[] {
	return agentOverridesOf(settings.keys).flatMap(({ agent, jsonPath, override }) => {
		if (override.extensions === undefined) return [];
		const label = `"${jsonPath}.extensions"`;
		const place: ListPlace = { file: settings.file, label };
		const own = override.subagentOnlyExtensions === false ? [] : (override.subagentOnlyExtensions ?? []);
		const check = checkChildExtensionList([...(override.extensions || []), ...own], place, ctx);
		const matching = agents.filter((a) => a.definition.names.includes(agent)).map((a) => a.definition);
		const gated = (matching.length > 0 ? matching : [null]).every((definition) =>
			listLoadsGate(childExtensions(definition, override, undefined).loaded, ctx),
		);
		if (gated) return [...check.warnings];
		const what =
			override.extensions === false
				? `removes the extension list of agent "${agent}", so its children start with none`
				: `replaces the extension list of agent "${agent}" with one that does not load ${GATE_PACKAGE_NAME}`;
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

/** Finding 4: an agent with its own `extensions:` ignores the defaults; no auto-fix (agent files are the user's). */
export function agentFinding(agent: ScopedAgent, ctx: ListCheckContext): Finding[] {
	const { definition, scope } = agent;
	if (definition.extensions === undefined) return [];
	const name = definition.names[0] ?? "";
	const place: ListPlace = { file: definition.file, label: `the "extensions:" of agent "${name}"` };
	const check = checkChildExtensionList(childExtensions(definition, {}, undefined).loaded, place, ctx);
	if (check.gated) return [...check.warnings];
	return [
		finding("agent-extensions-without-gate", {
			file: definition.file,
			explanation: `Agent "${name}" (${scope}, ${definition.file}) has its own "extensions:", which pi-subagents uses instead of "subagents.defaultExtensions"; it does not load ${GATE_PACKAGE_NAME}, so this agent's children run ungated.`,
			fix: `add ${ctx.gateEntry === null ? "the gate's directory" : JSON.stringify(ctx.gateEntry)} to the "extensions:" (or "subagentOnlyExtensions:") line of ${definition.file}; the doctor does not edit agent files`,
		}),
		...check.warnings,
	];
}
