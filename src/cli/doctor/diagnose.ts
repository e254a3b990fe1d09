import { dirname, join } from "node:path";
import { agentDefinitions, agentFinding, agentOverrides } from "./agent-findings.ts";
import type { ListCheckContext } from "./child-extension-list.ts";
import {
	childrenLoseExtensions,
	projectDefaultExtensions,
	userDefaultExtensions,
} from "./default-extensions-findings.ts";
import type { DoctorInput } from "./doctor-input.ts";
import { type Finding, finding } from "./finding.ts";
import { childGateEntry, gateInstalled, gateNotInstalled } from "./gate-findings.ts";
import { packagesEntryFor } from "./own-package.ts";
import { projectSettingsFiles } from "./project-locations.ts";
import { type RootResource, rootResources } from "./root-resources.ts";
import { type ReadSettings, readSettingsFile } from "./settings-file.ts";

export type Diagnosis =
	| { readonly status: "unusable"; readonly file: string; readonly problem: string }
	| {
			readonly status: "done";
			readonly findings: readonly Finding[];
			/** The text of every settings file the doctor read (null: absent), for applying fixes safely. */
			readonly settingsTexts: ReadonlyMap<string, string | null>;
			readonly gate: {
				readonly loadedBy: readonly RootResource[];
				/** What the doctor puts into children's extension lists; null when it knows no right entry. */
				readonly childEntry: string | null;
			};
			readonly subagents: { readonly installedBy: readonly RootResource[] };
	  };

/**
 * Would pi processes and in-process children that launchers start from this agent dir and project load the gate,
 * and which settings change fixes it where one can. Reads files through `view`; writes nothing.
 */
export function diagnose(input: DoctorInput): Diagnosis {
	const { agentDir, names, view } = input;
	const userFile = join(agentDir, "settings.json");
	const user = readSettingsFile(userFile, view);
	if (user.status === "unusable") return user;
	const projects: ReadSettings[] = [];
	for (const file of projectSettingsFiles(input.projectDir)) {
		if (view.realPath(file) === view.realPath(userFile)) continue;
		const project = readSettingsFile(file, view);
		if (project.status === "unusable") return project;
		if (project.status === "read") projects.push(project);
	}
	const userSettings = user.status === "read" ? user.settings : null;
	const resources = rootResources(agentDir, userSettings, input.homeDir, names, view);
	const gateResources = resources.filter((r) => r.isGate);
	const subagentsResources = [
		...resources,
		// A project can install pi-subagents for itself (`pi install -l`): its packages live under `<project>/.pi/`.
		...projects.flatMap((p) =>
			rootResources(dirname(p.file), p.settings, input.homeDir, names, view).filter(
				(r) => r.origin === "packages",
			),
		),
	].filter((r) => r.isSubagents);

	const findings: Finding[] = [];
	const packagesEntry = packagesEntryFor(input.ownRoot, agentDir, names.gate, view);
	if (gateResources.length === 0) findings.push(gateNotInstalled(user, userSettings, packagesEntry, input));
	else findings.push(gateInstalled(gateResources, userFile));

	const childEntry = childGateEntry(gateResources, input);
	const ctx: ListCheckContext = {
		projectDir: input.projectDir,
		homeDir: input.homeDir,
		names,
		gateEntry: childEntry,
		view,
	};
	if (subagentsResources.length === 0) {
		findings.push(
			finding("subagents-not-installed", {
				file: null,
				explanation: `pi-subagents is not installed in ${agentDir} (nor in the project's .pi/settings.json), so there are no subagents.defaultExtensions or agent definitions to check.`,
				fix: "nothing to do",
			}),
		);
	} else {
		findings.push(...userDefaultExtensions(userFile, userSettings, subagentsResources, ctx));
		findings.push(...childrenLoseExtensions(userFile, userSettings, resources, childEntry, input));
		for (const project of projects) findings.push(...projectDefaultExtensions(project, ctx));
		for (const settings of [user, ...projects]) {
			if (settings.status === "read") findings.push(...agentOverrides(settings, ctx));
		}
		for (const agent of agentDefinitions(subagentsResources, input))
			findings.push(...agentFinding(agent, ctx));
	}
	const settingsTexts = new Map<string, string | null>([
		[userFile, user.status === "read" ? user.text : null],
		...projects.map((p): [string, string] => [p.file, p.text]),
	]);
	return {
		status: "done",
		findings,
		settingsTexts,
		gate: { loadedBy: gateResources, childEntry },
		subagents: { installedBy: subagentsResources },
	};
}
