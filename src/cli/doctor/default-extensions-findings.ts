import { PI_SUBAGENTS_PACKAGE } from "../../launchers/known-launcher.ts";
import { GATE_PACKAGE_NAME } from "../../launchers/package-manifest.ts";
import {
	classifySource,
	keysOf,
	type LoadedSettings,
	type UsableSettings,
} from "../../launchers/pi-settings.ts";
import { resourceMayLoad, type SettingsResource } from "../../launchers/settings-resources.ts";
import type { ListCheckContext } from "./child-extension-list.ts";
import { checkChildExtensionList } from "./child-extension-list.ts";
import type { DoctorInput } from "./doctor-input.ts";
import { type Finding, finding, type SettingsChange } from "./finding.ts";
import { describeResource } from "./gate-findings.ts";

const REPLACES_ALL =
	"The list is the whole extension set of those children: whatever else they need (a model provider, for example) must be listed too.";

/** Finding 2: `subagents.defaultExtensions` of the agent dir, which every agent without its own list gets. */
export function userDefaultExtensions(
	user: UsableSettings,
	subagents: readonly SettingsResource[],
	ctx: ListCheckContext,
): Finding[] {
	const { file } = user;
	const list = keysOf(user).subagents?.defaultExtensions;
	const where = subagents.map(describeResource).join("; ");
	const why = `pi-subagents (${where}) starts its children inside the pi process, with only the extensions of "subagents.defaultExtensions" in ${file} (or of an agent's own "extensions:"), never the ones installed in the agent dir.`;
	if (list === undefined) {
		return [
			finding("subagents-default-extensions-missing", {
				file,
				explanation: `${why} ${file} has no such list, so every child runs ungated.`,
				...listFix(file, null, ctx.gateEntry),
			}),
		];
	}
	const check = checkChildExtensionList(list, { file, label: `"subagents.defaultExtensions"` }, ctx);
	if (check.gated) return [...check.warnings];
	return [
		finding("subagents-default-extensions-without-gate", {
			file,
			explanation: `${why} That list does not load ${GATE_PACKAGE_NAME}, so children of agents without their own "extensions:" run ungated.`,
			...listFix(file, list, ctx.gateEntry),
		}),
		...check.warnings,
	];
}

function listFix(
	file: string,
	before: readonly string[] | null,
	entry: string | null,
): { fix: string; change: SettingsChange | null } {
	if (entry === null) {
		return {
			fix: `install the gate first (see gate-not-installed), then add its directory to "subagents.defaultExtensions" in ${file}. ${REPLACES_ALL}`,
			change: null,
		};
	}
	return {
		fix: `add ${JSON.stringify(entry)} to "subagents.defaultExtensions" in ${file} (--fix does it${before === null ? ", creating the key" : ""}). ${REPLACES_ALL}`,
		change: { file, key: "subagents.defaultExtensions", before, after: [...(before ?? []), entry] },
	};
}

/**
 * What the root loads from the agent dir that pi-subagents' children will not get: they load only the list (as it
 * is after the doctor's own fix), so a model provider the root has is missing in them.
 */
export function childrenLoseExtensions(
	user: UsableSettings,
	resources: readonly SettingsResource[],
	childEntry: string | null,
	input: DoctorInput,
): Finding[] {
	const { file } = user;
	const { view } = input;
	// A path compares by where it leads; one that leads nowhere (yet) by itself.
	const placeOf = (path: string): string => view.realPath(path) ?? path;
	const list = [...(keysOf(user).subagents?.defaultExtensions ?? [])];
	if (childEntry !== null) list.push(childEntry);
	const listed = new Set(
		list.flatMap((entry) => {
			const source = classifySource(entry, input.projectDir, input.homeDir);
			if (source.kind === "path") return [placeOf(source.path)];
			return source.kind === "npm" ? [`npm:${source.name}`] : [];
		}),
	);
	const lost = resources.filter((r) => {
		if (r.location === null) return false;
		if (resourceMayLoad(r, GATE_PACKAGE_NAME, view) || resourceMayLoad(r, PI_SUBAGENTS_PACKAGE, view))
			return false;
		const npm = classifySource(r.written, input.agentDir, input.homeDir);
		return !listed.has(placeOf(r.location)) && !(npm.kind === "npm" && listed.has(`npm:${npm.name}`));
	});
	if (lost.length === 0) return [];
	const names = lost.map((r) => JSON.stringify(r.written)).join(", ");
	const paths = lost.map((r) => JSON.stringify(r.location)).join(", ");
	return [
		finding("subagents-children-lose-extensions", {
			file,
			explanation: `Children of pi-subagents load only "subagents.defaultExtensions" (in ${file}), not these extensions the root loads from the agent dir: ${names}.`,
			fix: `add to "subagents.defaultExtensions" in ${file} those children need (a model provider, for example): ${paths}`,
		}),
	];
}

/** Finding 3: a project list replaces the agent dir's for children started there (pi-subagents asks no trust). */
export function projectDefaultExtensions(project: LoadedSettings, ctx: ListCheckContext): Finding[] {
	const list = project.keys.subagents?.defaultExtensions;
	if (list === undefined) return [];
	const check = checkChildExtensionList(
		list,
		{ file: project.file, label: `"subagents.defaultExtensions"` },
		ctx,
	);
	if (check.gated) return [...check.warnings];
	const { fix, change } = listFix(project.file, list, ctx.gateEntry);
	return [
		finding("project-default-extensions-without-gate", {
			file: project.file,
			explanation: `${project.file} sets "subagents.defaultExtensions" without ${GATE_PACKAGE_NAME}. pi-subagents uses a project's list instead of the agent dir's, whether or not pi trusts the project, so children started there run ungated.`,
			fix,
			change,
		}),
		...check.warnings,
	];
}
