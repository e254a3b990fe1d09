import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { type FileView, textOf } from "./file-view.ts";

/** Only `pi.extensions` is read; the other resource lists only matter by being there. */
const manifestSchema = lazySchema(() =>
	z.looseObject({
		name: z.string().optional(),
		pi: z
			.looseObject({
				extensions: z.array(z.string()).optional(),
				skills: z.unknown().optional(),
				prompts: z.unknown().optional(),
				themes: z.unknown().optional(),
			})
			.optional(),
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

/** The package a file or directory belongs to once symlinks are resolved; null when nothing is at `path`. */
export function packageOf(path: string, files: FileView): PackageManifest | null {
	const real = files.realPath(path);
	if (real === null) return null;
	return owningManifest(files.kind(real) === "dir" ? real : dirname(real), files);
}
