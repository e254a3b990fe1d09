import { extensionFilesAt } from "./extension-files.ts";
import type { FileView } from "./file-view.ts";
import { packageOf } from "./package-manifest.ts";

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

/** Whether pi, loading `path` as an extension, loads a copy of the gate. */
export function loadsGate(path: string, files: FileView): boolean {
	return loadsPackage(path, GATE_PACKAGE_NAME, files);
}

function listedEntries(entries: readonly string[], files: FileView): string[] {
	const real = entries.flatMap((entry) => {
		const resolved = files.kind(entry) === null ? null : files.realPath(entry);
		return resolved === null ? [] : [resolved];
	});
	return [...new Set(real)];
}
