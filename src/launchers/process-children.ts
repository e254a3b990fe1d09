import { join } from "node:path";
import type { ChildGateQuery } from "./child-gate-query.ts";
import { type ChildGateVerdict, settingsFix } from "./child-gate-verdict.ts";
import type { FileView } from "./file-view.ts";
import { directoryEntries, loadsGate } from "./gate-package.ts";
import { type PiSettings, readPiSettings } from "./pi-settings.ts";
import { parsePackageSource, resolveSettingsPath } from "./settings-paths.ts";

/** Where one settings scope keeps things: its settings file, the base of its relative paths, its npm installs. */
interface Scope {
	readonly settings: PiSettings;
	readonly baseDir: string;
	readonly npmModules: string;
}

/**
 * A child `pi` process loads what pi loads from settings — the agent dir's `packages`, `extensions` and
 * `extensions/` directory, and a trusted project's `.pi/` equivalents — and never the parent's `-e` flags.
 * Exclusion patterns (`!…`, `-…`) in `extensions` can switch local entries off, so with any of them present only
 * `packages` count; so do filtered package entries (they may leave the gate out).
 */
export function processChildrenVerdict(query: ChildGateQuery): ChildGateVerdict {
	const { agentDir, homeDir, files, gate } = query;
	const userFile = join(agentDir, "settings.json");
	const user: Scope = {
		settings: readPiSettings(userFile, files),
		baseDir: agentDir,
		npmModules: join(agentDir, "npm", "node_modules"),
	};
	const fix = settingsFix(
		userFile,
		"packages",
		gate,
		` (what \`pi install\` writes), so every pi process started from this agent dir loads it`,
	);
	if (user.settings.state === "invalid") {
		return { gated: false, why: `${userFile} cannot be read as pi settings`, fix };
	}
	let via = "";
	for (const cwd of query.call.cwds) {
		const projectDir = join(cwd, ".pi");
		const project: Scope | null = query.projectTrusted
			? {
					settings: readPiSettings(join(projectDir, "settings.json"), files),
					baseDir: projectDir,
					npmModules: join(projectDir, "npm", "node_modules"),
				}
			: null;
		if (project?.settings.state === "invalid") {
			return { gated: false, why: `${project.settings.file} cannot be read as pi settings`, fix };
		}
		const found = loadingSource(user, project, homeDir, files);
		if (found === null) {
			return {
				gated: false,
				why: `a subagent runs as a separate pi process, which does not inherit this session's -e flags and loads only the extensions in ${userFile}${project ? ` and ${project.settings.file}` : ""}; none of them is pi-permission-hub`,
				fix,
			};
		}
		via ||= found;
	}
	return { gated: true, via };
}

function loadingSource(user: Scope, project: Scope | null, homeDir: string, files: FileView): string | null {
	const scopes = project ? [project, user] : [user];
	for (const scope of scopes) {
		for (const entry of scope.settings.packages) {
			if (
				entry.filtered ||
				(scope === user && project && filteredInProject(entry.source, user, project, homeDir))
			) {
				continue;
			}
			const path = packagePath(entry.source, scope, homeDir);
			if (path !== null && loadsGate(path, files)) return `\`packages\` in ${scope.settings.file}`;
		}
	}
	const excluding = scopes.some((scope) =>
		scope.settings.extensions.some((entry) => entry.startsWith("!") || entry.startsWith("-")),
	);
	if (excluding) return null;
	for (const scope of scopes) {
		for (const entry of scope.settings.extensions) {
			if (isPattern(entry)) continue;
			if (loadsGate(resolveSettingsPath(entry, scope.baseDir, homeDir), files)) {
				return `\`extensions\` in ${scope.settings.file}`;
			}
		}
		const auto = join(scope.baseDir, "extensions");
		if (autoDiscovered(auto, files).some((entry) => loadsGate(entry, files))) return `${auto}/`;
	}
	return null;
}

/** A project entry for the same package replaces the user's; a filtered one may leave the gate out. */
function filteredInProject(source: string, user: Scope, project: Scope, homeDir: string): boolean {
	const identity = packageIdentity(source, user, homeDir);
	return project.settings.packages.some(
		(entry) => entry.filtered && packageIdentity(entry.source, project, homeDir) === identity,
	);
}

function packageIdentity(source: string, scope: Scope, homeDir: string): string {
	const parsed = parsePackageSource(source);
	if (parsed.kind === "npm") return `npm:${parsed.name}`;
	if (parsed.kind === "local") return `local:${resolveSettingsPath(parsed.path, scope.baseDir, homeDir)}`;
	return parsed.source;
}

function packagePath(source: string, scope: Scope, homeDir: string): string | null {
	const parsed = parsePackageSource(source);
	if (parsed.kind === "local") return resolveSettingsPath(parsed.path, scope.baseDir, homeDir);
	if (parsed.kind === "npm") return join(scope.npmModules, parsed.name);
	return null;
}

function isPattern(entry: string): boolean {
	return /^[!+-]/.test(entry) || entry.includes("*") || entry.includes("?");
}

/** pi's discovery in an `extensions/` directory: the directory as one extension, else its files and subdirectories. */
function autoDiscovered(dir: string, files: FileView): string[] {
	if (files.kind(dir) !== "dir") return [];
	const own = directoryEntries(dir, files);
	if (own.length > 0) return own;
	return files.list(dir).flatMap((name) => {
		if (name.startsWith(".") || name === "node_modules") return [];
		const path = join(dir, name);
		const kind = files.kind(path);
		if (kind === "file") return name.endsWith(".ts") || name.endsWith(".js") ? [path] : [];
		return kind === "dir" ? directoryEntries(path, files) : [];
	});
}
