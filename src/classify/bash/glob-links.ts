/**
 * The symbolic links a glob may expand to. A repository can hold a link to a device or to the gate's inbox
 * (`notes.md -> /dev/pts/0`), which `cat -- *.md` opens though no word names it: every link in the directory a
 * read glob lists is checked as a path the command reads. So are the links in a directory whose entries the
 * command opens (`diff dir1 dir2` compares the files of the same name, through links).
 */
import { type Dirent, readdirSync } from "node:fs";
import { type EffectiveCwd, resolveDirectory } from "../paths.ts";
import { GLOB } from "./glob-writes.ts";
import type { PathCandidate } from "./path-candidate.ts";

/** Past this many entries a directory is not listed: what its glob reaches is then not known. */
const MOST_ENTRIES = 5000;

export function globLinkCandidates(
	candidates: readonly PathCandidate[],
	cwd: EffectiveCwd,
	homeDir: string,
): PathCandidate[] {
	const links: PathCandidate[] = [];
	for (const candidate of candidates) {
		const value = candidate.value;
		if (candidate.access !== "read" || value === undefined) continue;
		const glob = value.search(GLOB);
		if (glob < 0 && candidate.entries !== true) continue;
		if (glob >= 0 && candidate.entries === true) {
			// The directories a glob expands to are not listed here: what their entries link to is not known.
			links.push({ access: "read", typed: candidate.typed, value: undefined });
			continue;
		}
		const slash = value.lastIndexOf("/", glob);
		const directory = glob < 0 ? value : slash < 0 ? "." : slash === 0 ? "/" : value.slice(0, slash);
		const listed = resolveDirectory(directory, cwd, homeDir);
		if (listed === undefined) continue;
		let entries: Dirent[];
		try {
			entries = readdirSync(listed, { withFileTypes: true });
		} catch {
			// Nothing to list: bash leaves the glob as it is, a name that is checked as typed (a file has no entries).
			continue;
		}
		if (entries.length > MOST_ENTRIES) {
			links.push({ access: "read", typed: candidate.typed, value: undefined });
			continue;
		}
		const prefix = directory.endsWith("/") ? directory : `${directory}/`;
		for (const entry of entries) {
			if (entry.isSymbolicLink())
				links.push({ access: "read", typed: `${prefix}${entry.name}`, value: `${prefix}${entry.name}` });
		}
	}
	return links;
}
