import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { FileView } from "./file-view.ts";

/**
 * The names @tintinweb/pi-subagents knows an extension entry by in `extensions:` and `exclude_extensions:` (its
 * `extensionCanonicalNames`), lower-cased: the file's name without `.ts`/`.js` (its directory's for an `index`
 * file), and the short name of the package whose `pi.extensions` lists it. That package is the first directory
 * above the entry holding a readable, parseable package.json (never past a `node_modules`): a nameless one there
 * ends the search. So the built gate (`dist/extension/index.js`, below `dist/extension/package.json`, which the build
 * names after the package and has list `./index.js`) answers to `extension` and to `pi-permission-hub`.
 */
export function tintinwebExtensionNames(entry: string, files: FileView): string[] {
	const canonical = tintinwebCanonicalName(entry);
	const owner = declaringPackageName(entry, files);
	return owner !== undefined && owner !== canonical ? [canonical, owner] : [canonical];
}

/** Its `extensionCanonicalName`: what a path answers to, and what a path entry of `extensions:` adds to the kept names. */
export function tintinwebCanonicalName(path: string): string {
	const base = basename(path);
	const name =
		base === "index.ts" || base === "index.js" ? basename(dirname(path)) : base.replace(/\.(ts|js)$/, "");
	return name.toLowerCase();
}

/**
 * An `extensions:` entry as its `parseExtensionsSpec` reads it: a path (one with `/` or `\`, or starting with `~`)
 * made absolute against `cwd` (`~` is the home directory); null for a name.
 */
export function tintinwebExtensionPath(entry: string, cwd: string, homeDir: string): string | null {
	if (!(entry.includes("/") || entry.includes("\\") || entry.startsWith("~"))) return null;
	const expanded =
		entry === "~" || entry.startsWith("~/") || entry.startsWith("~\\") ? homeDir + entry.slice(1) : entry;
	return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

function declaringPackageName(entry: string, files: FileView): string | undefined {
	const resolved = resolve(entry);
	let dir = dirname(entry);
	for (;;) {
		if (basename(dir) === "node_modules") return undefined;
		const manifest = parsedJson(files, join(dir, "package.json"));
		if (manifest === undefined) {
			const parent = dirname(dir);
			if (parent === dir) return undefined;
			dir = parent;
			continue;
		}
		const name = fieldOf(manifest, "name");
		const entries = fieldOf(fieldOf(manifest, "pi"), "extensions");
		const declares =
			Array.isArray(entries) && entries.some((e) => typeof e === "string" && resolve(dir, e) === resolved);
		if (typeof name !== "string" || !declares) return undefined;
		return (name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name).toLowerCase();
	}
}

/** The parsed JSON at `file`; undefined when it cannot be read or parsed (it then looks further up). */
function parsedJson(files: FileView, file: string): unknown {
	const read = files.readText(file);
	if (read.state !== "text") return undefined;
	try {
		return JSON.parse(read.text);
	} catch {
		return undefined;
	}
}

/** A property of a parsed JSON value, as its `pkg.pi?.extensions` reads one (nothing for a non-object). */
function fieldOf(value: unknown, key: string): unknown {
	if (typeof value !== "object" || value === null) return undefined;
	return Object.entries(value).find(([k]) => k === key)?.[1];
}
