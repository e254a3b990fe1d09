/**
 * A bare command name that `PATH` resolves into the project (adr/0008): with an activated `.venv` (or `.`,
 * `node_modules/.bin`, an empty entry) on `PATH`, `git push` runs the project's `.venv/bin/git` — a file the model
 * can write — under the name the human reads and approves. Such a run is never silent, and the ask names the
 * program that will run. The shell's own builtins are found before `PATH`, and a name with a slash never
 * searches it.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import type { EffectiveCwd } from "../paths.ts";

/** bash's builtins and keywords that take a command's place: found before any `PATH` entry. */
const SHELL_BUILTINS: ReadonlySet<string> = new Set(
	(
		". : [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs " +
		"disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout " +
		"mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times " +
		"trap true type typeset ulimit umask unalias unset wait"
	).split(" "),
);

export interface ProjectProgramQuestion {
	/** The command word as typed. */
	readonly name: string;
	readonly cwd: EffectiveCwd;
	/** The `PATH` the commands run with; undefined when not known (nothing is said then). */
	readonly searchPath: string | undefined;
	/** Whether a directory lies inside the project (and the session's cwd). */
	readonly inside: (dir: string) => boolean;
	/** What `inside` means (the session's cwd and project): the key under which entries are remembered. */
	readonly scope: string;
}

interface ReadPath {
	readonly key: string;
	readonly entries: readonly string[];
	readonly resolved: readonly (string | null)[];
	/** Some entry is inside the project, or relative to a directory known only at run time. */
	readonly reachesProject: boolean;
}

/** The last PATH read: every command of a program (and every call of a session) shares one. */
let lastRead: ReadPath | null = null;

function readPath(question: ProjectProgramQuestion, searchPath: string): ReadPath {
	const { cwd } = question;
	const key = `${searchPath}\0${cwd.known ? cwd.dir : "\0"}\0${question.scope}`;
	if (lastRead?.key === key) return lastRead;
	const entries = searchPath.split(":");
	const resolved = entries.map((entry) => resolveEntry(entry, cwd));
	const reachesProject = resolved.some((dir) => dir === null || question.inside(dir));
	lastRead = { key, entries, resolved, reachesProject };
	return lastRead;
}

/** The program a bare name runs when `PATH` finds it inside the project, with the entry; null otherwise. */
export function projectProgram(
	question: ProjectProgramQuestion,
): { readonly program: string; readonly entry: string } | null {
	const { name, searchPath } = question;
	if (searchPath === undefined || name === "" || name.includes("/") || SHELL_BUILTINS.has(name)) return null;
	// Most PATHs hold no entry inside the project: then nothing is looked up.
	const { entries, resolved, reachesProject } = readPath(question, searchPath);
	if (!reachesProject) return null;
	for (const [index, dir] of resolved.entries()) {
		// An entry relative to a directory known only at run time: it may be inside the project.
		if (dir === null) return { program: path.join(entries[index] || ".", name), entry: entries[index] ?? "" };
		const program = path.join(dir, name);
		if (!isExecutableFile(program)) continue;
		return question.inside(dir) ? { program, entry: entries[index] ?? dir } : null;
	}
	return null;
}

/**
 * The `PATH` entry inside the project that writing `file` (absolute, resolved) puts a program in: the entry itself
 * (`cp -t .venv/bin x`) or a file directly in it (`cp x .venv/bin/ls`); undefined otherwise. Checked before the
 * program exists, since the same call (or another of the same message) can run its name next: `cp x .venv/bin/ls
 * && ls` would run the copy as `ls`.
 */
export function projectPathEntryWritten(
	question: Omit<ProjectProgramQuestion, "name">,
	file: string,
): string | undefined {
	const { searchPath } = question;
	if (searchPath === undefined) return undefined;
	const { resolved, reachesProject } = readPath({ ...question, name: "" }, searchPath);
	if (!reachesProject) return undefined;
	return (
		resolved.find(
			(dir) => dir !== null && question.inside(dir) && (file === dir || path.dirname(file) === dir),
		) ?? undefined
	);
}

/** An entry as bash reads it: empty is the cwd, relative is against the cwd; null when the cwd is not known. */
function resolveEntry(entry: string, cwd: EffectiveCwd): string | null {
	if (path.isAbsolute(entry)) return path.resolve(entry);
	return cwd.known ? path.resolve(cwd.dir, entry || ".") : null;
}

function isExecutableFile(file: string): boolean {
	try {
		if (!statSync(file).isFile()) return false;
		accessSync(file, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}
