/**
 * What a sandboxed run made that a later program runs from (adr/0014, adr/0017). The project-write sandbox keeps
 * the places it finds read-only, but it cannot keep a program from making new ones: `tar x` of an archive holding
 * `vendor/x/.git/config`, a script writing `pkg/HEAD` beside `pkg/objects/` and `pkg/refs/`, `cargo new`. In the
 * gate's sandboxes what such a repository names runs no further than the sandbox lets it (and git run in another
 * directory is never read-tier, adr/0003); outside them — the user's own `git status`, an editor that looks for
 * repositories — it runs as the user. So a run that made one never passes silently: after it, the gate searches
 * again, and what is new is said to the human and to the model.
 */
import path from "node:path";
import {
	findProtectedPlaces,
	type ProtectedKind,
	type ProtectedPlace,
	type ProtectedSearch,
} from "./protected-places.ts";

/** The places a sandboxed run started with, and the search that found them. */
export interface PlacesAtStart {
	readonly search: ProtectedSearch;
	readonly places: readonly ProtectedPlace[];
}

/** A place that appeared during a run: it was not covered by any place protected when the run started. */
export interface CreatedPlace {
	readonly path: string;
	/** What reads it, as the notice says. */
	readonly what: string;
}

const WHAT_READS: Readonly<Record<ProtectedKind, string>> = {
	git: "a git repository, whose config and hooks git runs programs from",
	hooks: "a hooks directory a repository's config names, whose programs git runs",
	"git-config": "a file a repository's config includes or names as a program",
	pi: "a .pi directory, whose settings, extensions and agents pi loads",
	agents: "launcher agent definitions, which name what a subagent loads and runs",
	"link-target": "the target of a link to a guarded file",
};

/**
 * The places found now that no place protected at the start covers. A place protected at the start that did not
 * exist then is covered too: the sandbox held it read-only (bubblewrap leaves its empty mount point behind).
 * A project that can no longer be searched (a new link where a protected name goes, a cap passed) is reported
 * as the project itself, with the reason.
 */
export function placesCreatedSince(start: PlacesAtStart): readonly CreatedPlace[] {
	const now = findProtectedPlaces(start.search);
	if (!("places" in now)) {
		return [
			{ path: start.search.project, what: `the project can no longer be made writable: ${now.refused}` },
		];
	}
	return now.places
		.filter((place) => place.exists && !start.places.some((before) => covers(before.path, place.path)))
		.map((place) => ({ path: place.path, what: WHAT_READS[place.kind] }));
}

/** The notice for a run that made `created` in `project`: for the human (a warning) and the model (the result). */
export function createdPlacesNotice(project: string, created: readonly CreatedPlace[]): string {
	const lines = created.map((place) => `  ${shown(project, place.path)}: ${place.what}`);
	return [
		"pi-permission-hub: this command made places that make later commands run programs:",
		...lines,
		"They were made in the sandbox, where nothing they name can leave it; outside it (your own git, an editor that looks for repositories) what they name runs. Check them before running git or pi there yourself.",
	].join("\n");
}

function shown(project: string, place: string): string {
	const relative = path.relative(project, place);
	return relative === "" ? "the project itself" : relative;
}

function covers(outer: string, inner: string): boolean {
	return inner === outer || inner.startsWith(`${outer}/`);
}
