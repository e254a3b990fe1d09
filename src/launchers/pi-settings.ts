import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage } from "../vocabulary/error-message.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import type { FileView } from "./file-view.ts";

const nonEmptyStrings = lazySchema(() =>
	z.array(z.string().check(z.refine((s) => s.trim() !== "", "must not be empty"))),
);
const stringsOrFalse = lazySchema(() => z.union([nonEmptyStrings(), z.literal(false)]));

/** `packages` entries as pi writes them: a source string, or an object with a source and resource filters. */
const packageEntrySchema = lazySchema(() =>
	z.union([
		z.string(),
		z.looseObject({
			source: z.string(),
			extensions: z.optional(z.array(z.string())),
			autoload: z.optional(z.boolean()),
		}),
	]),
);

const agentOverrideSchema = lazySchema(() =>
	z.looseObject({
		extensions: z.optional(stringsOrFalse()),
		subagentOnlyExtensions: z.optional(stringsOrFalse()),
		tools: z.optional(z.union([nonEmptyStrings(), z.literal(false), z.literal("inherit")])),
	}),
);
const agentOverridesSchema = lazySchema(() => z.record(z.string(), agentOverrideSchema()));

/**
 * Only the keys that decide which extensions load, typed as pi and pi-subagents accept them; every other key
 * passes through untouched. A key of the wrong type makes the file invalid: pi-subagents refuses such a file, so
 * what it loads cannot be told.
 */
const settingsSchema = lazySchema(() =>
	z.looseObject({
		packages: z.optional(z.array(packageEntrySchema())),
		extensions: z.optional(z.array(z.string())),
		subagents: z.optional(
			z.looseObject({
				defaultExtensions: z.optional(nonEmptyStrings()),
				agentOverrides: z.optional(agentOverridesSchema()),
				agentOverridesByProvider: z.optional(z.record(z.string(), agentOverridesSchema())),
			}),
		),
	}),
);

export type PackageEntry = z.infer<ReturnType<typeof packageEntrySchema>>;
export type AgentOverride = z.infer<ReturnType<typeof agentOverrideSchema>>;
export type SettingsKeys = z.infer<ReturnType<typeof settingsSchema>>;

/** One pi settings file (the agent dir's or a project's `.pi/settings.json`). */
export type PiSettings =
	| { readonly state: "missing"; readonly file: string }
	/** Unreadable, not JSON, or a key pi or pi-subagents would reject: what loads cannot be told. */
	| { readonly state: "invalid"; readonly file: string; readonly problem: string }
	| {
			readonly state: "loaded";
			readonly file: string;
			/** Exactly what was read: a change is written only while the file still holds this text. */
			readonly text: string;
			readonly keys: SettingsKeys;
	  };

export type UsableSettings = Exclude<PiSettings, { state: "invalid" }>;
export type LoadedSettings = Extract<PiSettings, { state: "loaded" }>;

/** A settings.json as pi reads it: plain JSON, a leading byte-order mark ignored. */
export function readPiSettings(file: string, files: FileView): PiSettings {
	const read = files.readText(file);
	if (read.state === "missing") return { state: "missing", file };
	if (read.state === "unreadable") return { state: "invalid", file, problem: read.problem };
	let value: unknown;
	try {
		value = JSON.parse(read.text.replace(/^\uFEFF/, ""));
	} catch (error) {
		const reason = errorMessage(error);
		return { state: "invalid", file, problem: `is not valid JSON: ${reason}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { state: "invalid", file, problem: "is not a JSON object" };
	}
	const parsed = settingsSchema().safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const where = issue?.path.map(String).join(".") ?? "";
		return {
			state: "invalid",
			file,
			problem: `has an invalid "${where}": ${issue?.message ?? "unexpected value"}`,
		};
	}
	return { state: "loaded", file, text: read.text, keys: parsed.data };
}

/** The keys of a usable settings file; a missing file has none. */
export function keysOf(settings: UsableSettings): SettingsKeys {
	return settings.state === "loaded" ? settings.keys : {};
}

/** The source string of a `packages` entry. */
export function packageSource(entry: PackageEntry): string {
	return typeof entry === "string" ? entry : entry.source;
}

/**
 * Which of its package's extensions a `packages` entry loads (pi's package manager):
 * - `all`: a string, or an object that filters other resources only (`"skills": […]`);
 * - `none`: `"extensions": []`, or `"autoload": false` without extension patterns;
 * - `patterns`: extension patterns select them. They are not evaluated here, so whether the gate is among them
 *   is not known, and such an entry never counts as loading it.
 */
export type ExtensionSelection = "all" | "none" | "patterns";

export function extensionSelection(entry: PackageEntry): ExtensionSelection {
	if (typeof entry === "string") return "all";
	if (entry.autoload === false) return (entry.extensions ?? []).length === 0 ? "none" : "patterns";
	if (entry.extensions === undefined) return "all";
	return entry.extensions.length === 0 ? "none" : "patterns";
}

/** A project entry with `autoload: false` does not replace the user's entry for the same package: it adjusts it. */
export function isAutoloadDelta(entry: PackageEntry): boolean {
	return typeof entry !== "string" && entry.autoload === false;
}

export interface NamedOverride {
	readonly agent: string;
	readonly override: AgentOverride;
	/** The JSON path in the settings file, for messages and fixes. */
	readonly jsonPath: string;
	/** From `agentOverridesByProvider`: it applies only while that provider's model is in use. */
	readonly byProvider: boolean;
}

/** Every `subagents.agentOverrides` entry and every provider's, in file order. */
export function agentOverridesOf(keys: SettingsKeys): NamedOverride[] {
	const named = (overrides: Record<string, AgentOverride>, prefix: string, byProvider: boolean) =>
		Object.entries(overrides).map(([agent, override]) => ({
			agent,
			override,
			jsonPath: `${prefix}.${agent}`,
			byProvider,
		}));
	return [
		...named(keys.subagents?.agentOverrides ?? {}, "subagents.agentOverrides", false),
		...Object.entries(keys.subagents?.agentOverridesByProvider ?? {}).flatMap(([provider, overrides]) =>
			named(overrides, `subagents.agentOverridesByProvider.${provider}`, true),
		),
	];
}

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
