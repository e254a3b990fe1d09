import { join, resolve } from "node:path";
import { expandHome } from "../../policy/config-paths.ts";
import { classifySource } from "./extension-source.ts";
import type { FileView } from "./file-view.ts";
import { discoveredExtensionFiles, isExtensionOfPackage, type PackageNames } from "./package-identity.ts";
import { readManifest } from "./package-manifest.ts";
import {
	type PackageEntry,
	packageLoadsExtensions,
	packageSource,
	type SettingsKeys,
} from "./settings-file.ts";

/** Where the agent dir makes pi load something from: a settings key, or auto-discovery in `extensions/`. */
export type ResourceOrigin = "packages" | "extensions" | "extensions-dir";

/** One thing a pi process started with this agent dir loads (launchers' child processes included). */
export interface RootResource {
	readonly origin: ResourceOrigin;
	/** The entry as written in settings.json; for `extensions/` the discovered file. */
	readonly written: string;
	/** The package directory or extension file pi loads; null when the doctor cannot tell where it is. */
	readonly location: string | null;
	/** Whether something is at `location` now (an npm or git package may still be installed by pi at start). */
	readonly present: boolean;
	readonly isGate: boolean;
	readonly isSubagents: boolean;
}

/** Everything `<agent dir>/settings.json` (`packages`, `extensions`) and `<agent dir>/extensions/` load. */
export function rootResources(
	agentDir: string,
	settings: SettingsKeys | null,
	homeDir: string,
	names: PackageNames,
	view: FileView,
): RootResource[] {
	const fromPackages = (settings?.packages ?? []).map((entry) =>
		packageResource(entry, agentDir, homeDir, names, view),
	);
	// An exclusion (`!…`, `-…`) in "extensions" may switch any local entry off: then only packages count as the gate.
	const excluding = (settings?.extensions ?? []).some((entry) => /^\s*[!-]/.test(entry));
	const fromExtensions = (settings?.extensions ?? []).flatMap((written) => {
		const source = classifySource(written, agentDir, homeDir, { patterns: true });
		if (source.kind === "pattern" || source.kind === "builtin") return [];
		const path = source.kind === "path" ? source.path : resolve(agentDir, expandHome(written, homeDir));
		return [fileResource("extensions", written, path, names, view, excluding)];
	});
	const fromDir = discoveredExtensionFiles(join(agentDir, "extensions"), view).map((file) =>
		fileResource("extensions-dir", file, file, names, view, excluding),
	);
	return [...fromPackages, ...fromExtensions, ...fromDir];
}

function packageResource(
	entry: PackageEntry,
	agentDir: string,
	homeDir: string,
	names: PackageNames,
	view: FileView,
): RootResource {
	const written = packageSource(entry);
	const loads = packageLoadsExtensions(entry);
	const source = classifySource(written, agentDir, homeDir);
	const location =
		source.kind === "npm"
			? join(agentDir, "npm", "node_modules", source.name)
			: source.kind === "git"
				? join(agentDir, "git", source.host, source.repoPath)
				: source.kind === "path"
					? source.path
					: null;
	const present = location !== null && view.kind(location) !== "missing";
	// An npm spec names its package; anything else is known by the package.json found where pi loads it from.
	const name =
		source.kind === "npm"
			? source.name
			: location === null
				? null
				: (readManifest(location, view)?.name ?? null);
	return {
		origin: "packages",
		written,
		location,
		present,
		isGate: loads && name === names.gate,
		isSubagents: loads && name === names.subagents,
	};
}

function fileResource(
	origin: ResourceOrigin,
	written: string,
	path: string,
	names: PackageNames,
	view: FileView,
	excluding: boolean,
): RootResource {
	const files = discoveredExtensionFiles(path, view);
	return {
		origin,
		written,
		location: path,
		present: view.kind(path) !== "missing",
		isGate: !excluding && files.some((file) => isExtensionOfPackage(file, names.gate, view)),
		isSubagents: files.some((file) => isExtensionOfPackage(file, names.subagents, view)),
	};
}
