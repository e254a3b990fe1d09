import { dirname, join } from "node:path";
import { projectRootCandidates, projectSettingsFile } from "../../launchers/agent-definition.ts";
import { PI_SUBAGENTS_PACKAGE, TINTINWEB_SUBAGENTS_PACKAGE } from "../../launchers/known-launcher.ts";
import { GATE_PACKAGE_NAME, gatePackageAt } from "../../launchers/package-manifest.ts";
import { packagesEntryFor } from "../../launchers/packages-entry.ts";
import { type LoadedSettings, readPiSettings } from "../../launchers/pi-settings.ts";
import {
	resourceLoads,
	resourceMayLoad,
	type SettingsResource,
	scopeResources,
} from "../../launchers/settings-resources.ts";
import {
	agentDefinitions,
	agentFinding,
	agentOverrides,
	agentScanIncomplete,
	childrenLoseExtensions,
	type ListCheckContext,
	projectDefaultExtensions,
	userDefaultExtensions,
} from "./child-extension-findings.ts";
import { type DoctorInput, type Finding, finding } from "./finding.ts";
import {
	childGateEntry,
	gateInstalled,
	gateNotInstalled,
	unloadablePackageEntries,
} from "./gate-findings.ts";
import { tintinwebFindings } from "./tintinweb-findings.ts";

export type Diagnosis =
	| { readonly status: "unusable"; readonly file: string; readonly problem: string }
	| {
			readonly status: "done";
			readonly findings: readonly Finding[];
			/** The text of every settings file the doctor read (null: absent), for applying fixes safely. */
			readonly settingsTexts: ReadonlyMap<string, string | null>;
			readonly gate: {
				readonly loadedBy: readonly SettingsResource[];
				/** What the doctor puts into children's extension lists; null when it knows no right entry. */
				readonly childEntry: string | null;
			};
			readonly subagents: { readonly installedBy: readonly SettingsResource[] };
	  };

/**
 * Would pi processes and in-process children that launchers start from this agent dir and project load the gate,
 * and which settings change fixes it where one can. Reads files through `view`; writes nothing.
 */
export function diagnose(input: DoctorInput): Diagnosis {
	const { agentDir, homeDir, view } = input;
	const userFile = join(agentDir, "settings.json");
	const user = readPiSettings(userFile, view);
	if (user.state === "invalid") return { status: "unusable", file: user.file, problem: user.problem };
	const userReal = view.realPath(userFile);
	const projects: LoadedSettings[] = [];
	for (const root of projectRootCandidates(input.projectDir, view)) {
		const file = projectSettingsFile(root);
		// With the agent dir inside the project, its settings are the project's: read once, as the user's.
		if (userReal !== null && view.realPath(file) === userReal) continue;
		const project = readPiSettings(file, view);
		if (project.state === "invalid")
			return { status: "unusable", file: project.file, problem: project.problem };
		if (project.state === "loaded") projects.push(project);
	}
	const resources = scopeResources({ settings: user, baseDir: agentDir }, null, homeDir, view);
	const gateResources = resources.filter((r) => resourceLoads(r, GATE_PACKAGE_NAME, view));
	const launcherResources = [
		...resources,
		// A project can install a launcher for itself (`pi install -l`): its packages live under `<project>/.pi/`.
		...projects.flatMap((p) =>
			scopeResources({ settings: p, baseDir: dirname(p.file) }, null, homeDir, view).filter(
				(r) => r.kind === "packages",
			),
		),
	];
	const subagentsResources = launcherResources.filter((r) => resourceMayLoad(r, PI_SUBAGENTS_PACKAGE, view));
	const tintinwebResources = launcherResources.filter((r) =>
		resourceMayLoad(r, TINTINWEB_SUBAGENTS_PACKAGE, view),
	);

	const findings: Finding[] = [...unloadablePackageEntries(resources)];
	const packagesEntry = packagesEntryFor(input.ownRoot, agentDir, view);
	if (gateResources.length === 0) findings.push(gateNotInstalled(user, resources, packagesEntry, input));
	else findings.push(gateInstalled(gateResources, userFile));

	const childEntry = childGateEntry(gateResources, input);
	// The copy children should load: the one the agent dir (the user's own, adr/0014) loads, else this one.
	const gate = gatePackageAt(childEntry ?? input.ownRoot, view);
	const ctx: ListCheckContext = { projectDir: input.projectDir, homeDir, gateEntry: childEntry, gate, view };
	if (subagentsResources.length === 0) {
		findings.push(
			finding("subagents-not-installed", {
				file: null,
				explanation: `pi-subagents is not installed in ${agentDir} (nor in the project's .pi/settings.json), so there are no subagents.defaultExtensions or agent definitions to check.`,
				fix: "nothing to do",
			}),
		);
	} else {
		findings.push(...userDefaultExtensions(user, subagentsResources, ctx));
		findings.push(...childrenLoseExtensions(user, resources, childEntry, input));
		for (const project of projects) findings.push(...projectDefaultExtensions(project, ctx));
		const agents = agentDefinitions(subagentsResources, input);
		for (const settings of [user, ...projects]) {
			if (settings.state === "loaded") findings.push(...agentOverrides(settings, agents.definitions, ctx));
		}
		findings.push(...agentScanIncomplete(agents));
		for (const agent of agents.definitions) findings.push(...agentFinding(agent, ctx));
	}
	if (tintinwebResources.length > 0) findings.push(...tintinwebFindings(tintinwebResources, input, gate));
	const settingsTexts = new Map<string, string | null>([
		[userFile, user.state === "loaded" ? user.text : null],
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
