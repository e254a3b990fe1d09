import { join } from "node:path";
import type { FileView } from "./file-view.ts";
import {
	discoveredExtensionFiles,
	type GatePackage,
	isExtensionOf,
	isOwnGateEntry,
	manifestIn,
	packageExtensionFiles,
} from "./package-manifest.ts";
import {
	classifySource,
	extensionSelection,
	isAutoloadDelta,
	isSettingsPattern,
	keysOf,
	mayExclude,
	type PackageEntry,
	packageIdentity,
	packageLocation,
	packageSource,
	resolveSettingsPath,
	type UsableSettings,
} from "./pi-settings.ts";

/** One settings scope of a pi process: the agent dir (`user`) or a trusted project's `.pi/` (`project`). */
export interface SettingsScope {
	readonly settings: UsableSettings;
	/** The base of its relative paths and of its installs: the agent dir, or `<project>/.pi`. */
	readonly baseDir: string;
}

/** Where a scope makes pi load something from: a settings key, or discovery in its `extensions/` directory. */
export type ResourceKind = "packages" | "extensions" | "extensions-dir";

/** One thing a pi process loads from a settings scope. */
export interface SettingsResource {
	readonly kind: ResourceKind;
	/** The settings file it comes from (for `extensions-dir`, the scope's settings file). */
	readonly settingsFile: string;
	/** The entry as written; for `extensions-dir` the discovered file. */
	readonly written: string;
	/** The package directory or extension path pi loads; null when it cannot be told (a built-in). */
	readonly location: string | null;
	/** Whether something is at `location` now (pi installs a missing npm or git package when it starts). */
	readonly present: boolean;
	/** The package a `packages` entry names: its npm name, else the name in the package.json at `location`. */
	readonly packageName: string | null;
	/** The extension files it surely loads as things are now; none when a filter or a settings pattern may leave them out. */
	readonly files: readonly string[];
	/** The files it would load were it not for extension patterns (in its entry, or in an `extensions` list). */
	readonly namedFiles: readonly string[];
	/** A `packages` entry whose filter leaves every extension of the package out. */
	readonly filteredOut: boolean;
}

/** Whether the resource surely loads an extension of package `name` (any copy of it, by its name). */
export function resourceLoads(resource: SettingsResource, name: string, files: FileView): boolean {
	return resource.files.some((file) => isExtensionOf(file, name, files));
}

/** Whether the resource surely loads `gate`, this very copy of the gate (by real path, never by name). */
export function resourceLoadsOwnGate(
	resource: SettingsResource,
	gate: GatePackage | null,
	files: FileView,
): boolean {
	return resource.files.some((file) => isOwnGateEntry(file, gate, files));
}

/**
 * Whether the resource may load package `name`: it surely does, or it names it and only an install at start
 * (an npm spec not installed yet) or a pattern stands in between.
 */
export function resourceMayLoad(resource: SettingsResource, name: string, files: FileView): boolean {
	if (resource.filteredOut) return false;
	return (
		resource.packageName === name || resource.namedFiles.some((file) => isExtensionOf(file, name, files))
	);
}

/**
 * Everything a pi process loads from these scopes (pi's package manager): the `packages` of both, a project
 * entry replacing the user's entry for the same package (an `autoload: false` one only adjusting it); then each
 * scope's `extensions` and `extensions/`. An exclusion or glob in any `extensions` list may switch off local
 * entries, so with one present only `packages` count as loading anything.
 */
export function scopeResources(
	user: SettingsScope,
	project: SettingsScope | null,
	homeDir: string,
	files: FileView,
): SettingsResource[] {
	const scopes = project ? [project, user] : [user];
	const excluding = scopes.some((scope) => (keysOf(scope.settings).extensions ?? []).some(mayExclude));
	return [
		...effectivePackages(user, project, homeDir).map(({ entry, scope, adjusted }) =>
			packageResource(entry, scope, adjusted, homeDir, files),
		),
		...scopes.flatMap((scope) => localResources(scope, excluding, homeDir, files)),
	];
}

interface ScopedEntry {
	readonly entry: PackageEntry;
	readonly scope: SettingsScope;
	/** A project `autoload: false` entry for the same package with extension patterns may switch this one's off. */
	readonly adjusted: boolean;
}

/**
 * pi's dedupe of `packages` (project entries first): a later project entry for the same package replaces an
 * earlier one, a user entry for a package already listed is dropped — unless the project entry is an
 * `autoload: false` delta, which pi resolves on top of the user's entry rather than instead of it.
 */
function effectivePackages(
	user: SettingsScope,
	project: SettingsScope | null,
	homeDir: string,
): ScopedEntry[] {
	const listed = [project, user].flatMap((scope) =>
		scope === null ? [] : (keysOf(scope.settings).packages ?? []).map((entry) => ({ entry, scope })),
	);
	const result: ScopedEntry[] = [];
	const seen = new Map<string, number>();
	for (const { entry, scope } of listed) {
		const identity = packageIdentity(classifySource(packageSource(entry), scope.baseDir, homeDir));
		const index = identity === null ? undefined : seen.get(identity);
		const existing = index === undefined ? undefined : result[index];
		if (identity === null || index === undefined || existing === undefined) {
			if (identity !== null) seen.set(identity, result.length);
			result.push({ entry, scope, adjusted: false });
		} else if (existing.scope === project && scope === user) {
			if (isAutoloadDelta(existing.entry)) {
				result.push({ entry, scope, adjusted: extensionSelection(existing.entry) !== "none" });
			}
		} else if (scope === project) {
			result[index] = { entry, scope, adjusted: false };
		}
	}
	return result;
}

function packageResource(
	entry: PackageEntry,
	scope: SettingsScope,
	adjusted: boolean,
	homeDir: string,
	files: FileView,
): SettingsResource {
	const written = packageSource(entry);
	const source = classifySource(written, scope.baseDir, homeDir);
	const location = packageLocation(source, scope.baseDir);
	const named = location === null ? [] : packageExtensionFiles(location, files);
	const selection = extensionSelection(entry);
	const loads = selection === "all" && !adjusted;
	return {
		kind: "packages",
		settingsFile: scope.settings.file,
		written,
		location,
		present: location !== null && files.kind(location) !== null,
		packageName:
			source.kind === "npm" ? source.name : location && (manifestIn(location, files)?.name ?? null),
		files: loads ? named : [],
		namedFiles: named,
		filteredOut: selection === "none",
	};
}

function localResources(
	scope: SettingsScope,
	excluding: boolean,
	homeDir: string,
	files: FileView,
): SettingsResource[] {
	const fileResource = (kind: ResourceKind, written: string, location: string): SettingsResource => {
		const named = discoveredExtensionFiles(location, files);
		return {
			kind,
			settingsFile: scope.settings.file,
			written,
			location,
			present: files.kind(location) !== null,
			packageName: null,
			files: excluding ? [] : named,
			namedFiles: named,
			filteredOut: false,
		};
	};
	const listed = (keysOf(scope.settings).extensions ?? [])
		.filter((entry) => !isSettingsPattern(entry) && !entry.trim().startsWith("builtin:"))
		.map((entry) => fileResource("extensions", entry, resolveSettingsPath(entry, scope.baseDir, homeDir)));
	const discovered = discoveredExtensionFiles(join(scope.baseDir, "extensions"), files).map((file) =>
		fileResource("extensions-dir", file, file),
	);
	return [...listed, ...discovered];
}
