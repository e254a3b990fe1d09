import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Prefixes pi reads as remote package sources; anything else in settings is a local path. */
const REMOTE_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

/** pi's rule for a path in settings: trimmed, `~` and `~/…` under the home dir, `file://` URLs, then absolute against `baseDir`. */
export function resolveSettingsPath(entry: string, baseDir: string, homeDir: string): string {
	const trimmed = entry.trim();
	let expanded = trimmed;
	if (trimmed === "~") expanded = homeDir;
	else if (trimmed.startsWith("~/")) expanded = join(homeDir, trimmed.slice(2));
	else if (trimmed.startsWith("file://")) {
		try {
			expanded = fileURLToPath(trimmed);
		} catch {
			expanded = trimmed;
		}
	}
	return isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded);
}

export function isLocalSource(source: string): boolean {
	const trimmed = source.trim();
	return !REMOTE_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

export type PackageSource =
	| { readonly kind: "local"; readonly path: string }
	| { readonly kind: "npm"; readonly name: string }
	/** git, URLs, built-ins: where pi keeps them is not checked here, so they never count as the gate. */
	| { readonly kind: "other"; readonly source: string };

/** A `packages` entry as pi parses it (`npm:@scope/name@1.2.3` → npm `@scope/name`). */
export function parsePackageSource(source: string): PackageSource {
	const trimmed = source.trim();
	if (trimmed.startsWith("npm:")) {
		const spec = trimmed.slice(4).trim();
		const name = /^(@?[^@]+(?:\/[^@]+)?)(?:@.+)?$/.exec(spec)?.[1] ?? spec;
		return { kind: "npm", name };
	}
	if (isLocalSource(trimmed)) return { kind: "local", path: trimmed };
	return { kind: "other", source: trimmed };
}
