import { join } from "node:path";
import type { FileView } from "./file-view.ts";
import { enclosingPackage, extensionFilesAt } from "./package-manifest.ts";

/** The package names the doctor looks for: this package (the gate) and the launcher it knows. */
export interface PackageNames {
	readonly gate: string;
	readonly subagents: string;
}

export const SUBAGENTS_PACKAGE_NAME = "pi-subagents";

/**
 * Whether `file` is an extension entry that package `name` declares (any installed copy of it): a file is the gate
 * only when it is what the gate's package.json lists in `pi.extensions`, not merely a file inside the package.
 */
export function isExtensionOfPackage(file: string, name: string, view: FileView): boolean {
	const pkg = enclosingPackage(file, view);
	if (pkg === null || pkg.name !== name) return false;
	const real = view.realPath(file);
	return pkg.extensionEntries.some((entry) => view.realPath(entry) === real);
}

/** Whether loading `path` (a file or a directory, by pi's rule) loads an extension of package `name`. */
export function pathLoadsPackage(path: string, name: string, view: FileView): boolean {
	return extensionFilesAt(path, view).some((file) => isExtensionOfPackage(file, name, view));
}

/**
 * The extension files pi discovers in a directory listed in settings or in `<agent dir>/extensions/`: the
 * directory's own entries when it declares some, else every `*.ts` / `*.js` file and every sub-directory's entries
 * (hidden entries and node_modules skipped).
 */
export function discoveredExtensionFiles(dir: string, view: FileView): readonly string[] {
	const own = extensionFilesAt(dir, view);
	if (own.length > 0 || view.kind(dir) !== "directory") return own;
	return view.list(dir).flatMap((entry) => {
		if (entry.name.startsWith(".") || entry.name === "node_modules") return [];
		const path = join(dir, entry.name);
		if (entry.kind === "file") return /\.(ts|js)$/.test(entry.name) ? [path] : [];
		return entry.kind === "directory" ? extensionFilesAt(path, view) : [];
	});
}
