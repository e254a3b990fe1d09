import { join } from "node:path";
import type { DoctorInput } from "./doctor-input.ts";
import { type Finding, finding, type SettingsChange } from "./finding.ts";
import { packagesEntryFor } from "./own-package.ts";
import { enclosingPackage } from "./package-manifest.ts";
import type { RootResource } from "./root-resources.ts";
import type { SettingsFile, SettingsKeys } from "./settings-file.ts";

/** Finding 1: nothing the agent dir loads is the gate; the fix adds this copy to `packages` when it may. */
export function gateNotInstalled(
	user: SettingsFile,
	settings: SettingsKeys | null,
	packagesEntry: string | null,
	input: DoctorInput,
): Finding {
	const before = settings?.packages ?? null;
	const change: SettingsChange | null =
		packagesEntry === null
			? null
			: { file: user.file, key: "packages", before, after: [...(before ?? []), packagesEntry] };
	const install = `pi install npm:${input.names.gate}`;
	return finding("gate-not-installed", {
		file: user.file,
		explanation: `The gate is not installed in the agent dir: no entry of "packages" or "extensions" in ${user.file} and nothing in ${join(input.agentDir, "extensions")} loads ${input.names.gate}. A session can then only have it because it was started with -e, and the pi processes launchers start (they never get -e) run ungated.`,
		fix:
			change === null
				? `${install} (this command runs from ${input.ownRoot}, which is not a lasting copy of the gate, so --fix cannot add it)`
				: `${install}, or --fix adds ${JSON.stringify(packagesEntry)} to "packages" in ${user.file} (the copy this command runs from)`,
		change,
	});
}

/** The gate is where launched processes find it: said once, so the report shows what was checked. */
export function gateInstalled(gateResources: readonly RootResource[], userFile: string): Finding {
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
export function childGateEntry(gateResources: readonly RootResource[], input: DoctorInput): string | null {
	const ordered = [...gateResources].sort((a, b) => Number(b.present) - Number(a.present));
	for (const resource of ordered) {
		if (resource.location === null) continue;
		if (resource.origin === "packages") return resource.location;
		const pkg = enclosingPackage(resource.location, input.view);
		return pkg !== null && pkg.name === input.names.gate ? pkg.root : resource.location;
	}
	return packagesEntryFor(input.ownRoot, input.agentDir, input.names.gate, input.view) === null
		? null
		: input.ownRoot;
}

/** How a thing is loaded, for the explanations: the entry as written and where pi finds it. */
export function describeResource(resource: RootResource): string {
	const where =
		resource.origin === "extensions-dir"
			? `found in extensions/ as ${resource.written}`
			: `${JSON.stringify(resource.written)} in "${resource.origin}"`;
	return resource.location !== null &&
		resource.location !== resource.written &&
		resource.origin !== "extensions-dir"
		? `${where} → ${resource.location}${resource.present ? "" : " (not there yet: pi installs it when it starts)"}`
		: where;
}
