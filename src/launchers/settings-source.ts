import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What an entry of a pi settings list names, classified as pi's package manager does: an `npm:` spec, a git
 * source, a built-in extension, else a local path. Remote-looking prefixes that are not a git source
 * (`github:x`, a bare `https:` URL pi cannot read as a repository) fall back to a relative path, as in pi.
 */
export type SettingsSource =
	| { readonly kind: "npm"; readonly name: string }
	| { readonly kind: "git"; readonly host: string; readonly repoPath: string }
	| { readonly kind: "builtin" }
	| {
			readonly kind: "path";
			/** Resolved against the base directory the caller gave. */
			readonly path: string;
			/** Absolute, `~` or `~/`: the same place whatever directory pi runs in. */
			readonly anchored: boolean;
	  };

const NON_LOCAL_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

export function classifySource(written: string, baseDir: string, homeDir: string): SettingsSource {
	const entry = written.trim();
	if (entry.startsWith("builtin:")) return { kind: "builtin" };
	if (entry.startsWith("npm:")) return { kind: "npm", name: npmName(entry.slice(4).trim()) };
	const git = gitLocation(entry);
	if (git !== null) return { kind: "git", ...git };
	if (NON_LOCAL_PREFIXES.some((prefix) => entry.startsWith(prefix))) {
		return { kind: "path", path: resolve(baseDir, entry), anchored: false };
	}
	const expanded = expandPath(entry, homeDir);
	return { kind: "path", path: resolveSettingsPath(entry, baseDir, homeDir), anchored: isAbsolute(expanded) };
}

/** pi's rule for a path in settings: trimmed, `~` and `~/…` under the home dir, `file://` URLs, then absolute against `baseDir`. */
export function resolveSettingsPath(entry: string, baseDir: string, homeDir: string): string {
	const expanded = expandPath(entry.trim(), homeDir);
	return isAbsolute(expanded) ? resolve(expanded) : resolve(baseDir, expanded);
}

function expandPath(entry: string, homeDir: string): string {
	if (entry === "~") return homeDir;
	if (entry.startsWith("~/")) return join(homeDir, entry.slice(2));
	if (entry.startsWith("file://")) {
		try {
			return fileURLToPath(entry);
		} catch {
			return entry;
		}
	}
	return entry;
}

/**
 * An entry of a settings `extensions` list that selects rather than names: `!`/`+`/`-` overrides and globs.
 * Any of them except a `+` may switch off what the plain entries of the list (and `extensions/`) load.
 */
export function isSettingsPattern(entry: string): boolean {
	return /^[!+-]|[*?]/.test(entry.trim());
}

export function mayExclude(entry: string): boolean {
	return isSettingsPattern(entry) && !entry.trim().startsWith("+");
}

/**
 * Where pi keeps a `packages` entry of a scope whose base directory is `scopeDir` (the agent dir, or a
 * project's `.pi/`): `npm/node_modules/<name>`, `git/<host>/<owner>/<repo>`, a local path resolved against it;
 * null for a built-in.
 */
export function packageLocation(source: SettingsSource, scopeDir: string): string | null {
	switch (source.kind) {
		case "npm":
			return join(scopeDir, "npm", "node_modules", source.name);
		case "git":
			return join(scopeDir, "git", source.host, source.repoPath);
		case "path":
			return source.path;
		case "builtin":
			return null;
	}
}

/** pi's identity of a package (versions and refs ignored): a project entry with the same one replaces the user's. */
export function packageIdentity(source: SettingsSource): string | null {
	switch (source.kind) {
		case "npm":
			return `npm:${source.name}`;
		case "git":
			return `git:${source.host}/${source.repoPath}`;
		case "path":
			return `local:${source.path}`;
		case "builtin":
			return null;
	}
}

/** `name` or `@scope/name` of an npm spec, without its version (pi's rule). */
function npmName(spec: string): string {
	return /^(@?[^@]+(?:\/[^@]+)?)(?:@.+)?$/.exec(spec)?.[1] ?? spec;
}

/**
 * Host and `owner/repo` of a git source (`git:host/owner/repo[@ref]`, `git@host:owner/repo`, or an
 * `https://` / `ssh://` / `git://` URL): pi clones it to `<scope dir>/git/<host>/<owner>/<repo>`.
 */
function gitLocation(entry: string): { host: string; repoPath: string } | null {
	const prefixed = entry.startsWith("git:");
	const url = prefixed ? entry.slice(4).trim() : entry;
	if (!prefixed && !/^(https?|ssh|git):\/\//i.test(url)) return null;
	const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(url);
	const [host, rest] = scp ? [scp[1], scp[2]] : hostAndRest(url);
	const parts = (rest ?? "")
		.replace(/#.*$/, "")
		.split("/")
		.filter((part) => part !== "");
	const owner = parts[0];
	const repo = parts[1]?.replace(/@.*$/, "").replace(/\.git$/, "");
	if (host === undefined || host === "" || owner === undefined || repo === undefined || repo === "")
		return null;
	return { host: host.replace(/:\d+$/, ""), repoPath: `${owner}/${repo}` };
}

function hostAndRest(url: string): [string, string] {
	const bare = url.replace(/^[a-z+]+:\/\//i, "").replace(/^[^@/]+@/, "");
	const slash = bare.indexOf("/");
	return slash < 0 ? [bare, ""] : [bare.slice(0, slash), bare.slice(slash + 1)];
}
