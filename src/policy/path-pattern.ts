/**
 * Path patterns (`read`, `write`, `path`, `outside-cwd` rules and grants): picomatch globs, dotfiles included.
 * `~` / `~/` expand to the home directory. Absolute patterns match absolute paths; relative patterns match the
 * path relative to the session cwd, for paths inside it. A relative pattern that starts with `**` can also be
 * asked to match anywhere (see `PathMatchScope`), against the absolute path without its leading `/`.
 */
import picomatch from "picomatch";

/** How many literal leading directory segments a rule index keys on. */
export const PATH_INDEX_DEPTH = 3;

export interface PathMatcher {
	readonly pattern: string;
	/** The glob actually compiled: `~` expanded, a leading `./` dropped. */
	readonly glob: string;
	readonly anchor: "absolute" | "relative";
	/** Relative and starting with `**`: meaningful for any path, not only those under the cwd. */
	readonly anywhere: boolean;
	/** Literal leading segments (at most PATH_INDEX_DEPTH) that every matching path starts with. */
	readonly keySegments: readonly string[];
	readonly test: (path: string) => boolean;
}

const GLOB_SPECIAL = /[*?[\]{}()!+@\\]/g;

/** `text` as a glob that matches only itself: every glob character escaped. */
export function globLiteral(text: string): string {
	return text.replace(GLOB_SPECIAL, "\\$&");
}

export function compilePathPattern(pattern: string, homeDir: string): PathMatcher {
	const glob = normalizeGlob(pattern, homeDir);
	const anchor = glob.startsWith("/") ? "absolute" : "relative";
	const test = picomatch(glob, { dot: true, nonegate: true });
	return {
		pattern,
		glob,
		anchor,
		anywhere: anchor === "relative" && glob.startsWith("**"),
		keySegments: literalSegments(glob),
		test,
	};
}

function normalizeGlob(pattern: string, homeDir: string): string {
	const home = globLiteral(homeDir);
	if (pattern === "~") return home;
	if (pattern.startsWith("~/")) return `${home}${pattern.slice(1)}`;
	let glob = pattern;
	while (glob.startsWith("./")) glob = glob.slice(2);
	return glob;
}

/** The literal directory prefix picomatch reports, cut before any escaped character (its base keeps the `\`). */
function literalSegments(glob: string): string[] {
	const { base } = picomatch.scan(glob);
	const segments: string[] = [];
	for (const segment of base.split("/")) {
		if (segment === "") continue;
		if (segment.includes("\\") || segments.length === PATH_INDEX_DEPTH) break;
		segments.push(segment);
	}
	return segments;
}

/** `path` relative to `cwd` when inside it (`.` for the cwd itself), else null. Both are normalized absolute paths. */
export function relativeInside(cwd: string, path: string): string | null {
	if (path === cwd) return ".";
	if (cwd === "/") return path.startsWith("/") ? path.slice(1) : null;
	return path.startsWith(cwd) && path.charCodeAt(cwd.length) === 47 ? path.slice(cwd.length + 1) : null;
}

/**
 * Whether relative `**` patterns reach paths outside the cwd. Deny and ask rules, and every `outside-cwd` rule,
 * say `outside`: a `**\/.env` deny means every `.env`. Allow rules and grants on read/write/path say `inside`:
 * an allow never reaches further than the operator wrote.
 */
export type PathMatchScope = "inside" | "outside";

export function pathFormMatches(
	matcher: PathMatcher,
	form: string,
	cwd: string,
	scope: PathMatchScope,
): boolean {
	if (matcher.anchor === "absolute") return matcher.test(form);
	const relative = relativeInside(cwd, form);
	if (relative !== null) return matcher.test(relative);
	return scope === "outside" && matcher.anywhere && matcher.test(form.slice(1));
}
