import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { FileView } from "./file-view.ts";

const manifestSchema = z.looseObject({
	name: z.string().optional(),
	pi: z.looseObject({ extensions: z.array(z.string()).optional() }).optional(),
});

export interface PackageManifest {
	/** The directory holding package.json. */
	readonly root: string;
	readonly name: string | null;
	/** `pi.extensions`, resolved against the root (pi loads the entries that exist). */
	readonly extensions: readonly string[] | null;
}

/** The package.json directly in `dir`, or null when there is none or it is not a JSON object. */
export function manifestIn(dir: string, files: FileView): PackageManifest | null {
	const text = files.readText(join(dir, "package.json"));
	if (text === null) return null;
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return null;
	}
	const parsed = manifestSchema.safeParse(raw);
	if (!parsed.success) return null;
	const extensions = parsed.data.pi?.extensions;
	return {
		root: dir,
		name: parsed.data.name ?? null,
		extensions: extensions ? extensions.map((entry) => resolve(dir, entry)) : null,
	};
}

/** The nearest package.json at or above `dir` (how Node tells which package a file belongs to). */
export function owningManifest(dir: string, files: FileView): PackageManifest | null {
	let current = dir;
	for (;;) {
		const manifest = manifestIn(current, files);
		if (manifest) return manifest;
		const parent = dirname(current);
		if (parent === current) return null;
		current = parent;
	}
}
