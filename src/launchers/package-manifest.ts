import { basename, dirname, join, resolve } from "node:path";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import { type FileView, textOf } from "./file-view.ts";

/** Only `pi.extensions` is read; the other resource lists only matter by being there. */
const manifestSchema = lazySchema(() =>
	z.looseObject({
		name: z.optional(z.string()),
		pi: z.optional(
			z.looseObject({
				extensions: z.optional(z.array(z.string())),
				skills: z.optional(z.unknown()),
				prompts: z.optional(z.unknown()),
				themes: z.optional(z.unknown()),
			}),
		),
	}),
);

export interface PackageManifest {
	/** The directory holding package.json. */
	readonly root: string;
	readonly name: string | null;
	/** `pi.extensions`, resolved against the root (pi loads the entries that exist); null when not declared. */
	readonly extensions: readonly string[] | null;
	/** Whether `pi` lists any resources: then pi loads what it lists and looks in no directory by convention. */
	readonly listsResources: boolean;
}

/** The package.json directly in `dir`, or null when there is none or it cannot be read as a manifest. */
export function manifestIn(dir: string, files: FileView): PackageManifest | null {
	const text = textOf(files.readText(join(dir, "package.json")));
	if (text === null) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return null;
	}
	const parsed = manifestSchema().safeParse(raw);
	if (!parsed.success) return null;
	const { name, pi } = parsed.data;
	return {
		root: dir,
		name: name ?? null,
		extensions: pi?.extensions ? pi.extensions.map((entry) => resolve(dir, entry)) : null,
		listsResources: [pi?.extensions, pi?.skills, pi?.prompts, pi?.themes].some((list) => list !== undefined),
	};
}

/**
 * The nearest package.json at or above `dir` that names a package: the package a file belongs to. A nameless one
 * only gives its folder a module type (this package's build has two, adr/0012) and belongs to the package around it,
 * and so does one named like the package around it (within it: no `node_modules` between), as this package's
 * `dist/extension/package.json` is, for @tintinweb/pi-subagents to know the gate by its name (adr/0026).
 */
export function owningManifest(dir: string, files: FileView): PackageManifest | null {
	const nearest = nearestNamingManifest(dir, files, () => false);
	if (nearest === null || nearest.name === null) return nearest;
	const around = nearestNamingManifest(dirname(nearest.root), files, (at) => basename(at) === "node_modules");
	return around !== null && around.root !== nearest.root && around.name === nearest.name ? around : nearest;
}

/** The nearest package.json at or above `dir` that names a package or lists resources, not looking past `stop`. */
function nearestNamingManifest(
	dir: string,
	files: FileView,
	stop: (dir: string) => boolean,
): PackageManifest | null {
	let current = dir;
	for (;;) {
		if (stop(current)) return null;
		const manifest = manifestIn(current, files);
		if (manifest && (manifest.name !== null || manifest.listsResources)) return manifest;
		const parent = dirname(current);
		if (parent === current) return null;
		current = parent;
	}
}

/** The package a file or directory belongs to once symlinks are resolved; null when nothing is at `path`. */
export function packageOf(path: string, files: FileView): PackageManifest | null {
	const real = files.realPath(path);
	if (real === null) return null;
	return owningManifest(files.kind(real) === "dir" ? real : dirname(real), files);
}

/**
 * pi's rule for a path given as one extension (`-e`, a launcher's list): a file is itself; a directory loads the
 * existing entries of its manifest's `pi.extensions`, else its index.ts, else its index.js.
 */
export function extensionFilesAt(path: string, files: FileView): string[] {
	const kind = files.kind(path);
	if (kind === "file") return [path];
	if (kind !== "dir") return [];
	const listed = (manifestIn(path, files)?.extensions ?? []).filter((entry) => files.kind(entry) !== null);
	if (listed.length > 0) return listed;
	for (const index of ["index.ts", "index.js"]) {
		const candidate = join(path, index);
		if (files.kind(candidate) === "file") return [candidate];
	}
	return [];
}

/**
 * pi's discovery in a directory of extensions (`<agent dir>/extensions/`, or a directory listed in a settings
 * `extensions` list): the directory as one extension when it is one, else its `*.ts` / `*.js` files and each
 * subdirectory's own entries (hidden entries and node_modules skipped).
 */
export function discoveredExtensionFiles(dir: string, files: FileView): string[] {
	const own = extensionFilesAt(dir, files);
	if (own.length > 0 || files.kind(dir) !== "dir") return own;
	return files.list(dir).flatMap((name) => {
		if (name.startsWith(".") || name === "node_modules") return [];
		const path = join(dir, name);
		const kind = files.kind(path);
		if (kind === "file") return name.endsWith(".ts") || name.endsWith(".js") ? [path] : [];
		return kind === "dir" ? extensionFilesAt(path, files) : [];
	});
}

/**
 * What pi loads from a package it installs or finds at `location` (a `packages` entry, unfiltered): a file is
 * itself; a package that lists resources loads its existing `pi.extensions`; one that lists none loads its
 * `extensions/` directory, or, for a directory with neither, the directory as one extension.
 */
export function packageExtensionFiles(location: string, files: FileView): string[] {
	const kind = files.kind(location);
	if (kind === "file") return [location];
	if (kind !== "dir") return [];
	const manifest = manifestIn(location, files);
	if (manifest?.listsResources)
		return (manifest.extensions ?? []).filter((entry) => files.kind(entry) !== null);
	const conventional = join(location, "extensions");
	if (files.kind(conventional) === "dir") return discoveredExtensionFiles(conventional, files);
	return extensionFilesAt(location, files);
}

export const GATE_PACKAGE_NAME = "pi-permission-hub";

/** A copy of this package on disk: any copy gates the session that loads it. */
export interface GatePackage {
	/** Canonical path of the package directory. */
	readonly root: string;
	/** Canonical paths of the files that load the gate: what its `pi.extensions` lists (what pi loads). */
	readonly entries: readonly string[];
}

/** The copy of pi-permission-hub that `path` (a file or directory) belongs to, or null. */
export function gatePackageAt(path: string, files: FileView): GatePackage | null {
	const manifest = packageOf(path, files);
	if (manifest?.name !== GATE_PACKAGE_NAME) return null;
	return { root: manifest.root, entries: listedEntries(manifest.extensions ?? [], files) };
}

/**
 * Whether `file` is an extension entry package `name` declares (in any copy of it): one its `pi.extensions`
 * lists, not merely a module inside the package.
 */
export function isExtensionOf(file: string, name: string, files: FileView): boolean {
	const real = files.realPath(file);
	if (real === null) return false;
	const manifest = packageOf(real, files);
	if (manifest?.name !== name) return false;
	return listedEntries(manifest.extensions ?? [], files).includes(real);
}

/** Whether pi, loading `path` as an extension, loads an extension of package `name`. */
export function loadsPackage(path: string, name: string, files: FileView): boolean {
	return extensionFilesAt(path, files).some((file) => isExtensionOf(file, name, files));
}

/** Whether pi, loading `path` as an extension, loads a copy of the gate (by its name: see `loadsOwnGate`). */
export function loadsGate(path: string, files: FileView): boolean {
	return loadsPackage(path, GATE_PACKAGE_NAME, files);
}

/**
 * Whether `file` is an extension entry of `gate`, this very copy of the gate, by its real path. A name proves
 * nothing: a hostile project can ship a package.json named pi-permission-hub that loads nothing of the gate, and
 * its children would take it for the gate. With no copy located (null), nothing is the gate: the strict direction.
 */
export function isOwnGateEntry(file: string, gate: GatePackage | null, files: FileView): boolean {
	if (gate === null) return false;
	const real = files.realPath(file);
	return real !== null && gate.entries.includes(real);
}

/** Whether pi, loading `path` as an extension, loads `gate`, this very copy of the gate. */
export function loadsOwnGate(path: string, gate: GatePackage | null, files: FileView): boolean {
	return extensionFilesAt(path, files).some((file) => isOwnGateEntry(file, gate, files));
}

function listedEntries(entries: readonly string[], files: FileView): string[] {
	const real = entries.flatMap((entry) => {
		const resolved = files.kind(entry) === null ? null : files.realPath(entry);
		return resolved === null ? [] : [resolved];
	});
	return [...new Set(real)];
}
