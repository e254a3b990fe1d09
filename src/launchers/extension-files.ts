import { join } from "node:path";
import type { FileView } from "./file-view.ts";
import { manifestIn } from "./package-manifest.ts";

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
