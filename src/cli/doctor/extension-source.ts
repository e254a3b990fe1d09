import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expandHome } from "../../policy/config-paths.ts";

/**
 * What an extension or package entry in a settings file names, classified the way pi classifies it
 * (`npm:` spec, git source, `builtin:`, a `+`/`-`/`!`/glob pattern, else a local path).
 */
export type ExtensionSource =
	| { readonly kind: "npm"; readonly written: string; readonly name: string }
	| { readonly kind: "git"; readonly written: string; readonly host: string; readonly repoPath: string }
	| { readonly kind: "builtin"; readonly written: string }
	| { readonly kind: "pattern"; readonly written: string }
	| {
			readonly kind: "path";
			readonly written: string;
			/** Resolved against the base directory the caller gave. */
			readonly path: string;
			/** Absolute or `~/`: the same place whatever directory pi runs in. */
			readonly anchored: boolean;
	  };

const NON_LOCAL_PREFIXES = ["npm:", "git:", "github:", "http:", "https:", "ssh:", "builtin:"];

export function classifySource(
	written: string,
	baseDir: string,
	homeDir: string,
	options: { readonly patterns: boolean } = { patterns: false },
): ExtensionSource {
	const entry = written.trim();
	if (options.patterns && /^[!+-]|[*?]/.test(entry)) return { kind: "pattern", written };
	if (entry.startsWith("builtin:")) return { kind: "builtin", written };
	if (entry.startsWith("npm:")) return { kind: "npm", written, name: npmName(entry.slice(4).trim()) };
	const git = gitLocation(entry);
	if (git !== null) return { kind: "git", written, ...git };
	if (NON_LOCAL_PREFIXES.some((prefix) => entry.startsWith(prefix))) {
		// pi falls back to reading these as (relative) paths, which name nothing.
		return { kind: "path", written, path: resolve(baseDir, entry), anchored: false };
	}
	const expanded = entry.startsWith("file://") ? fileURLToPath(entry) : expandHome(entry, homeDir);
	const anchored = isAbsolute(expanded);
	return { kind: "path", written, path: anchored ? resolve(expanded) : resolve(baseDir, expanded), anchored };
}

/** `name` or `@scope/name` of an npm spec, without its version (pi's rule). */
function npmName(spec: string): string {
	return /^(@?[^@]+(?:\/[^@]+)?)(?:@.+)?$/.exec(spec)?.[1] ?? spec;
}

/**
 * Host and `owner/repo` of a git source (`git:host/owner/repo[@ref]`, `git@host:owner/repo`, or an
 * `https://` / `ssh://` / `git://` URL): pi clones it to `<agent dir>/git/<host>/<owner>/<repo>`.
 */
function gitLocation(entry: string): { host: string; repoPath: string } | null {
	const prefixed = entry.startsWith("git:");
	const url = prefixed ? entry.slice(4).trim() : entry;
	if (!prefixed && !/^(https?|ssh|git):\/\//i.test(url)) return null;
	const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(url);
	const [host, rest] = scp
		? [scp[1], scp[2]]
		: (() => {
				const bare = url.replace(/^[a-z+]+:\/\//i, "").replace(/^[^@/]+@/, "");
				const slash = bare.indexOf("/");
				return slash < 0 ? [bare, ""] : [bare.slice(0, slash), bare.slice(slash + 1)];
			})();
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
