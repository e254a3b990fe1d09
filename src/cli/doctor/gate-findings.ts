import { join } from "node:path";
import { GATE_PACKAGE_NAME, packageOf } from "../../launchers/package-manifest.ts";
import { packagesEntryFor } from "../../launchers/packages-entry.ts";
import { keysOf, type UsableSettings } from "../../launchers/pi-settings.ts";
import type { SettingsChange } from "../../launchers/settings-change.ts";
import { resourceMayLoad, type SettingsResource } from "../../launchers/settings-resources.ts";
import { type DoctorInput, type Finding, finding } from "./finding.ts";

/**
 * Finding 1: nothing the agent dir loads is the gate; the fix adds this copy to `packages` when it may. When an
 * entry names the gate but does not load it now (an npm package not installed yet, a filter), another copy
 * would not help: pi keeps the first entry of a package, so the fix is to install it or lift the filter.
 */
export function gateNotInstalled(
	user: UsableSettings,
	resources: readonly SettingsResource[],
	packagesEntry: string | null,
	input: DoctorInput,
): Finding {
	const install = `pi install npm:${GATE_PACKAGE_NAME}`;
	const nothing = `no entry of "packages" or "extensions" in ${user.file} and nothing in ${join(input.agentDir, "extensions")} loads ${GATE_PACKAGE_NAME}`;
	const consequence =
		"A session can then only have it because it was started with -e, and the pi processes launchers start (they never get -e) run ungated.";
	const named = resources.filter((r) => resourceMayLoad(r, GATE_PACKAGE_NAME, input.view));
	if (named.length > 0) {
		return finding("gate-not-installed", {
			file: user.file,
			explanation: `The gate is not installed in the agent dir: ${nothing} now. ${named.map(describeResource).join("; ")} names it, but it is not there yet or a filter or pattern may leave it out. ${consequence}`,
			fix: `${install} (or start pi once online, so it installs what "packages" lists), and remove any filter or exclusion pattern that leaves the gate's extension out`,
		});
	}
	const before = keysOf(user).packages ?? null;
	const change: SettingsChange | null =
		packagesEntry === null
			? null
			: { file: user.file, key: "packages", before, after: [...(before ?? []), packagesEntry] };
	return finding("gate-not-installed", {
		file: user.file,
		explanation: `The gate is not installed in the agent dir: ${nothing}. ${consequence}`,
		fix:
			change === null
				? `${install} (this command runs from ${input.ownRoot}, which is not a lasting copy of the gate, so --fix cannot add it)`
				: `${install}, or --fix adds ${JSON.stringify(packagesEntry)} to "packages" in ${user.file} (the copy this command runs from)`,
		change,
	});
}

/** The gate is where launched processes find it: said once, so the report shows what was checked. */
export function gateInstalled(gateResources: readonly SettingsResource[], userFile: string): Finding {
	const how = gateResources.map(describeResource).join("; ");
	return finding("gate-installed", {
		file: userFile,
		explanation: `The gate is installed in the agent dir (${how}): every pi process started with this agent dir loads it, including the processes launchers start.`,
		fix: "nothing to do",
	});
}

/**
 * The entry children's lists should carry: the directory of the gate the agent dir installs (an extension file
 * becomes its package directory), else the copy this command runs from, which the packages fix installs.
 */
export function childGateEntry(
	gateResources: readonly SettingsResource[],
	input: DoctorInput,
): string | null {
	for (const resource of gateResources) {
		if (resource.location === null) continue;
		if (resource.kind === "packages") return resource.location;
		const pkg = packageOf(resource.location, input.view);
		return pkg?.name === GATE_PACKAGE_NAME ? pkg.root : resource.location;
	}
	return packagesEntryFor(input.ownRoot, input.agentDir, input.view) === null ? null : input.ownRoot;
}

/** How a thing is loaded, for the explanations: the entry as written and where pi finds it. */
export function describeResource(resource: SettingsResource): string {
	const where =
		resource.kind === "extensions-dir"
			? `found in extensions/ as ${resource.written}`
			: `${JSON.stringify(resource.written)} in "${resource.kind}"`;
	return resource.location !== null &&
		resource.location !== resource.written &&
		resource.kind !== "extensions-dir"
		? `${where} → ${resource.location}${resource.present ? "" : " (not there yet: pi installs it when it starts)"}`
		: where;
}

const TARBALL = /\.(tgz|tar\.gz|tar)$/i;
const LOCAL_SPEC = /^(\/|\.{1,2}\/|~|file:)/;

/**
 * `packages` entries pi 1.x accepts at `pi install` but can never load: a local path or tarball behind `npm:`
 * (pi takes the whole spec as a registry name, reinstalls it at every start and looks for
 * `node_modules/<spec>`, so nothing loads and nothing is said), and a tarball path (pi stops at start with
 * `Unknown file extension ".tgz"`). Either way a gate meant to be installed is not.
 */
export function unloadablePackageEntries(resources: readonly SettingsResource[]): Finding[] {
	const reinstall =
		"npm install --prefix ~/pi-packages --legacy-peer-deps <the .tgz file>, then pi install ~/pi-packages/node_modules/<package name> (a folder pi can load)";
	return resources.flatMap((resource) => {
		if (resource.kind !== "packages") return [];
		const entry = resource.written.trim();
		const spec = entry.startsWith("npm:") ? entry.slice(4).trim() : null;
		let why: string | null = null;
		if (spec !== null && (LOCAL_SPEC.test(spec) || TARBALL.test(spec))) {
			why = `pi reads everything after "npm:" as the name of a package on the npm registry: it installs ${JSON.stringify(spec)} again at every start, then looks for a package of that name in node_modules, finds none and loads nothing, without a message`;
		} else if (spec === null && TARBALL.test(entry)) {
			why = `pi cannot load a tarball: it refuses to start, with 'Unknown file extension "${entry.slice(entry.lastIndexOf("."))}"'`;
		}
		if (why === null) return [];
		return [
			finding("package-entry-unloadable", {
				file: resource.settingsFile,
				explanation: `"packages" in ${resource.settingsFile} lists ${JSON.stringify(resource.written)}: ${why}. Whatever it was meant to install is not running.`,
				fix: `pi remove ${JSON.stringify(resource.written)}; then ${reinstall}`,
			}),
		];
	});
}
