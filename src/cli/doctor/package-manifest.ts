import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { FileView } from "./file-view.ts";

const manifestSchema = z.looseObject({
	name: z.string().optional(),
	pi: z.looseObject({ extensions: z.array(z.string()).optional() }).optional(),
});

export interface PackageManifest {
	readonly root: string;
	readonly name: string | null;
	/** Absolute paths of the `pi.extensions` entries that exist; empty when the manifest declares none. */
	readonly extensionEntries: readonly string[];
}

/** The package.json of `dir`, or null when there is none or it cannot be parsed (never an error: just unknown). */
export function readManifest(dir: string, view: FileView): PackageManifest | null {
	let text: string | null;
	try {
		text = view.readText(join(dir, "package.json"));
	} catch {
		return null;
	}
	if (text === null) return null;
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return null;
	}
	const parsed = manifestSchema.safeParse(value);
	if (!parsed.success) return null;
	const entries = (parsed.data.pi?.extensions ?? [])
		.map((entry) => resolve(dir, entry))
		.filter((entry) => view.kind(entry) !== "missing");
	return { root: dir, name: parsed.data.name ?? null, extensionEntries: entries };
}

/** Directories above a file that deep are not worth walking to find its package. */
const MAX_PACKAGE_DEPTH = 64;

/** The nearest package at or above `path` (a file or a directory), following symlinks first. */
export function enclosingPackage(path: string, view: FileView): PackageManifest | null {
	let dir = view.kind(path) === "directory" ? view.realPath(path) : dirname(view.realPath(path));
	for (let depth = 0; depth < MAX_PACKAGE_DEPTH; depth++) {
		const manifest = readManifest(dir, view);
		if (manifest !== null) return manifest;
		const parent = dirname(dir);
		if (parent === dir) return null;
		dir = parent;
	}
	return null;
}

/**
 * The extension files pi loads for a path (pi's own rule): a file is itself; a directory loads the existing
 * `pi.extensions` of its package.json, else its index.ts, else its index.js.
 */
export function extensionFilesAt(path: string, view: FileView): readonly string[] {
	const kind = view.kind(path);
	if (kind === "file") return [path];
	if (kind !== "directory") return [];
	const declared = readManifest(path, view)?.extensionEntries ?? [];
	if (declared.length > 0) return declared;
	for (const index of ["index.ts", "index.js"]) {
		if (view.kind(join(path, index)) === "file") return [join(path, index)];
	}
	return [];
}
