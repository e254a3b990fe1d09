/**
 * Where a repository's hooks are, as git finds them (adr/0014): `core.hooksPath` from the repository's config and
 * the files it includes, over the user's and the system's, else `hooks/` in its git directory. A hooks directory
 * named by the config (`.husky/_`, `.githooks`) is as much a place that runs programs as `.git/hooks`, though no
 * fixed name says so. The files are parsed here, not by running `git config`: a process per classified write
 * would cost milliseconds, and a config that cannot be read fails closed instead of passing as "no hooksPath".
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";

/** Where the hooks are, or why that is not known (an unreadable config). */
export type HooksPlace =
	| {
			readonly known: true;
			readonly directory: string;
			/**
			 * The files the configs include (`include.path`, `includeIf`), whether they exist or not: each is as much
			 * the repository's config as `.git/config` (a project's shared `.gitconfig` can set `core.fsmonitor`).
			 */
			readonly included: readonly string[];
			/**
			 * The programs in files that config keys name by path (`core.fsmonitor = tools/monitor.sh`, a diff
			 * driver's script): writing one changes what git runs, though the config is untouched.
			 */
			readonly programs: readonly string[];
	  }
	| { readonly known: false; readonly why: string };

interface ConfigScope {
	readonly homeDir: string;
}

/**
 * The hooks directory of the repository whose git directory is `gitDir` and whose work tree is `workTree` (the
 * git directory itself for a bare repository): a relative `core.hooksPath` is taken from there, as git takes it
 * from where hooks run.
 */
export function hooksPlaceOf(gitDir: string, workTree: string, scope: ConfigScope): HooksPlace {
	const common = commonDirOf(gitDir);
	// The files git reads, in its order; GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM move the first ones, and pi's
	// environment is what a command pi runs inherits. GIT_CONFIG_NOSYSTEM is not honoured: reading more is stricter.
	const env = process.env;
	const globals = env.GIT_CONFIG_GLOBAL
		? [env.GIT_CONFIG_GLOBAL]
		: [
				path.join(env.XDG_CONFIG_HOME || path.join(scope.homeDir, ".config"), "git", "config"),
				path.join(scope.homeDir, ".gitconfig"),
			];
	const files = [
		env.GIT_CONFIG_SYSTEM || "/etc/gitconfig",
		...globals,
		path.join(common, "config"),
		path.join(gitDir, "config.worktree"),
	];
	let hooksPath: string | undefined;
	const collected: Collected = { included: [], programs: [] };
	for (const file of files) {
		const found = lastHooksPath(file, scope, 0, collected);
		if (!found.readable) return { known: false, why: found.why };
		if (found.value !== undefined) hooksPath = found.value;
	}
	const { included } = collected;
	const programs = collected.programs.map((program) =>
		path.resolve(workTree, expandTilde(program, scope.homeDir)),
	);
	if (hooksPath === undefined || hooksPath === "") {
		return { known: true, directory: path.join(common, "hooks"), included, programs };
	}
	const directory = path.resolve(workTree, expandTilde(hooksPath, scope.homeDir));
	return { known: true, directory, included, programs };
}

/** `commondir` sends a worktree's git directory to the main one, whose config and hooks it shares. */
function commonDirOf(gitDir: string): string {
	const text = readQuietly(path.join(gitDir, "commondir"));
	if (text === undefined) return gitDir;
	const named = text.trim();
	return named === "" ? gitDir : path.resolve(gitDir, named);
}

interface Collected {
	readonly included: string[];
	readonly programs: string[];
}

/** Keys whose value is a command git runs (a quoted subsection reads `.s`, an old-style one keeps its dots). */
const PROGRAM_KEYS =
	/^(core\.(fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|diff\..+\.(textconv|command)|diff\.external|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential(\..+)?\.helper|sequence\.editor|gpg(\..+)?\.program|pager\..+|alias\..+|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack))$/;

/**
 * The program a command value names by path (its first word, `!` of an alias dropped), or undefined for a name
 * found through `PATH`, a built-in (`core.fsmonitor = true`) or an empty value.
 */
function programPathOf(value: string): string | undefined {
	const word = value.replace(/^!/, "").trim().split(/\s+/)[0] ?? "";
	return word.includes("/") ? word : undefined;
}

type Found =
	| { readonly readable: true; readonly value: string | undefined }
	| { readonly readable: false; readonly why: string };

const MAX_INCLUDE_DEPTH = 10;

/**
 * The last `core.hooksPath` a config file sets, its includes followed in place (a missing file sets none); the
 * included files are added to `included`.
 */
function lastHooksPath(file: string, scope: ConfigScope, depth: number, collected: Collected): Found {
	if (depth > MAX_INCLUDE_DEPTH) {
		return { readable: false, why: `${file}: includes nest deeper than ${MAX_INCLUDE_DEPTH}` };
	}
	const read = readConfig(file);
	if (read.kind === "missing") return { readable: true, value: undefined };
	if (read.kind === "unreadable") return { readable: false, why: `${file} cannot be read (${read.why})` };
	let value: string | undefined;
	let section = "";
	for (const line of logicalLines(read.text)) {
		const header = /^\s*\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
		let rest = line;
		if (header !== null) {
			// `[includeIf "gitdir:…"]` counts as `[include]`: whether its condition holds is not worked out, and a
			// hooks directory it might name is guarded all the same (the stricter reading).
			const name = (header[1] ?? "").toLowerCase();
			section = header[2] === undefined ? name : name === "includeif" ? "include" : `${name}.s`;
			rest = header[3] ?? "";
			if (rest.trim() === "") continue;
		}
		const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
		if (entry === null) continue;
		const key = `${section}.${(entry[1] ?? "").toLowerCase()}`;
		const raw = entry[2] ?? "";
		if (key === "core.hookspath") value = configValue(raw);
		else if (PROGRAM_KEYS.test(key)) {
			const program = programPathOf(configValue(raw));
			if (program !== undefined) collected.programs.push(program);
		} else if (key === "include.path") {
			const includedFile = path.resolve(path.dirname(file), expandTilde(configValue(raw), scope.homeDir));
			collected.included.push(includedFile);
			const inner = lastHooksPath(includedFile, scope, depth + 1, collected);
			if (!inner.readable) return inner;
			if (inner.value !== undefined) value = inner.value;
		}
	}
	return { readable: true, value };
}

/** Lines with git's backslash-newline continuations joined. */
function logicalLines(text: string): string[] {
	return text.replace(/\\\r?\n/g, "").split(/\r?\n/);
}

/** A value as git reads it: quotes removed, escapes applied, a `#` or `;` outside quotes ends it. */
function configValue(raw: string): string {
	let out = "";
	let quoted = false;
	for (let index = 0; index < raw.length; index++) {
		const char = raw[index] ?? "";
		if (char === '"') quoted = !quoted;
		else if (char === "\\") {
			const next = raw[++index] ?? "";
			out += next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "" : next;
		} else if (!quoted && (char === "#" || char === ";")) break;
		else out += char;
	}
	return quoted ? out : out.trim();
}

function expandTilde(value: string, homeDir: string): string {
	return value === "~" ? homeDir : value.startsWith("~/") ? path.join(homeDir, value.slice(2)) : value;
}

type ConfigRead =
	| { readonly kind: "missing" }
	| { readonly kind: "unreadable"; readonly why: string }
	| { readonly kind: "text"; readonly text: string };

/** Parsed configs by file, kept while the file's size and change time stay the same. */
const configCache = new Map<string, { readonly stamp: string; readonly read: ConfigRead }>();

const MAX_CONFIG_BYTES = 1024 * 1024;

function readConfig(file: string): ConfigRead {
	let stamp: string;
	try {
		const stats = statSync(file, { throwIfNoEntry: false });
		if (stats === undefined) return { kind: "missing" };
		if (!stats.isFile()) return { kind: "unreadable", why: "not a regular file" };
		if (stats.size > MAX_CONFIG_BYTES) return { kind: "unreadable", why: "larger than 1 MiB" };
		stamp = `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
	} catch (error) {
		const code = fsErrorCode(error);
		// A path through a file (`ENOTDIR`) cannot be created by git either: no config there.
		if (code === "ENOTDIR") return { kind: "missing" };
		return { kind: "unreadable", why: code ?? "stat failed" };
	}
	const cached = configCache.get(file);
	if (cached?.stamp === stamp) return cached.read;
	let read: ConfigRead;
	try {
		read = { kind: "text", text: readFileSync(file, "utf8") };
	} catch (error) {
		read = { kind: "unreadable", why: fsErrorCode(error) ?? "read failed" };
	}
	if (configCache.size > 64) configCache.clear();
	configCache.set(file, { stamp, read });
	return read;
}

function readQuietly(file: string): string | undefined {
	try {
		return readFileSync(file, "utf8");
	} catch {
		return undefined;
	}
}
