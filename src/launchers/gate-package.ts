import { dirname, join } from "node:path";
import type { FileView } from "./file-view.ts";
import { manifestIn, owningManifest } from "./package-manifest.ts";

export const GATE_PACKAGE_NAME = "pi-permission-hub";

/** A copy of this package on disk: any copy gates the session that loads it. */
export interface GatePackage {
	/** Canonical path of the package directory. */
	readonly root: string;
	/** Canonical paths of the files that load the gate when pi loads them as an extension. */
	readonly entries: readonly string[];
}

/** The copy of pi-permission-hub that `path` (a file or directory) belongs to, or null. */
export function gatePackageAt(path: string, files: FileView): GatePackage | null {
	const real = files.realPath(path);
	if (real === null) return null;
	const manifest = owningManifest(files.kind(real) === "dir" ? real : dirname(real), files);
	if (manifest?.name !== GATE_PACKAGE_NAME) return null;
	// The published entry (pi.extensions) and the source entry a developer may point at directly.
	const candidates = [...(manifest.extensions ?? []), join(manifest.root, "src", "index.ts")];
	const entries = candidates.flatMap((entry) => {
		const resolved = files.kind(entry) === "file" ? files.realPath(entry) : null;
		return resolved === null ? [] : [resolved];
	});
	return { root: manifest.root, entries: [...new Set(entries)] };
}

/**
 * Whether pi, loading `path` as an extension, loads a copy of the gate: a file must be one of the package's
 * entries (not some other module of it); a directory loads what its manifest or its index file names.
 */
export function loadsGate(path: string, files: FileView): boolean {
	const kind = files.kind(path);
	if (kind === "file") return isGateEntry(path, files);
	if (kind === "dir") return directoryEntries(path, files).some((entry) => isGateEntry(entry, files));
	return false;
}

function isGateEntry(file: string, files: FileView): boolean {
	const real = files.realPath(file);
	if (real === null) return false;
	return gatePackageAt(real, files)?.entries.includes(real) ?? false;
}

/** pi's rule for a directory given as an extension: the manifest's `pi.extensions`, else index.ts, else index.js. */
export function directoryEntries(dir: string, files: FileView): string[] {
	const listed = (manifestIn(dir, files)?.extensions ?? []).filter((entry) => files.kind(entry) !== null);
	if (listed.length > 0) return listed;
	for (const index of ["index.ts", "index.js"]) {
		const candidate = join(dir, index);
		if (files.kind(candidate) === "file") return [candidate];
	}
	return [];
}
