/**
 * What a run in the project-write sandbox made that a later program runs from (adr/0017): real bubblewrap, real
 * files, the places the sandbox started with compared with a search after the run.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BubblewrapProbe, probeBubblewrap, sandboxedCommand } from "../../src/sandbox/bubblewrap.ts";
import {
	createdPlacesNotice,
	type PlacesAtStart,
	placesCreatedSince,
} from "../../src/sandbox/created-places.ts";
import { tempDir } from "../policy/fixtures.ts";
import { runShell } from "./shell-run.ts";

let probe: BubblewrapProbe & { usable: true };

beforeAll(async () => {
	const found = await probeBubblewrap();
	if (!found.usable) throw new Error(`these tests need bubblewrap (.ci/run installs it): ${found.why}`);
	probe = found;
});

/** A project (a git repository, or not) and a home; `script` run in its project-write sandbox. */
async function runIn(script: string, repository: boolean) {
	const root = tempDir();
	const home = join(root, "home");
	const project = join(root, "project");
	mkdirSync(home);
	mkdirSync(join(project, "src"), { recursive: true });
	if (repository) spawnSync("git", ["init", "-q", project]);
	let start: PlacesAtStart | undefined;
	const place = { project, cwd: project, keepReadOnly: [home], homeDir: home, linkTargets: [] };
	const result = await runShell(
		sandboxedCommand(script, "project-write", place, probe, undefined, (found) => {
			start = found;
		}),
	);
	if (start === undefined) throw new Error("the sandbox did not report the places it started with");
	return { project, start, result };
}

function placeOf(start: PlacesAtStart) {
	const { project, homeDir } = start.search;
	return { project, cwd: project, keepReadOnly: [homeDir], homeDir, linkTargets: [] };
}

describe("places a sandboxed run made", () => {
	it("a run that makes nothing new reports nothing: the empty mount points bubblewrap leaves are not new", async () => {
		const { start, result } = await runIn("echo ok > src/a.txt", false);
		expect(result.code).toBe(0);
		// `.git`, `.pi` and `.agents` did not exist: each was held by an empty read-only mount, left behind.
		expect(start.places.filter((place) => !place.exists).map((place) => place.kind)).toEqual([
			"agents",
			"git",
			"pi",
		]);
		expect(placesCreatedSince(start)).toEqual([]);
	});

	it("a nested .git, a bare-repository layout, a deep .pi and .agents: each named with what reads it", async () => {
		const { project, start, result } = await runIn(
			[
				"git init -q vendor/lib",
				"mkdir -p pkg/objects pkg/refs && echo 'ref: refs/heads/main' > pkg/HEAD",
				"mkdir -p tools/.pi tools/.agents",
			].join(" && "),
			true,
		);
		expect(result.err).toBe("");
		const created = placesCreatedSince(start);
		expect(created.map((place) => [place.path.slice(project.length + 1), place.what])).toEqual([
			["pkg", "a git repository, whose config and hooks git runs programs from"],
			["tools/.agents", "launcher agent definitions, which name what a subagent loads and runs"],
			["tools/.pi", "a .pi directory, whose settings, extensions and agents pi loads"],
			["vendor/lib/.git", "a git repository, whose config and hooks git runs programs from"],
		]);
		const notice = createdPlacesNotice(project, created);
		expect(notice).toContain("  pkg: a git repository");
		expect(notice).toContain("  vendor/lib/.git: a git repository");
	});

	it("a project laid out as a git directory after the run is reported as the project itself, with why", async () => {
		const { project, start } = await runIn("mkdir objects refs && echo 'ref: refs/heads/main' > HEAD", false);
		const created = placesCreatedSince(start);
		expect(created).toEqual([
			{
				path: project,
				what: "the project can no longer be made writable: the project itself is laid out as a git directory",
			},
		]);
		expect(createdPlacesNotice(project, created)).toContain(
			"  the project itself: the project can no longer",
		);
	});

	it("a repository that was there when the run started is not new", async () => {
		const { start, result } = await runIn("git init -q vendor/lib", true);
		expect(result.code).toBe(0);
		expect(placesCreatedSince(start).map((place) => place.path)).toEqual([
			join(start.search.project, "vendor", "lib", ".git"),
		]);
		let second: PlacesAtStart | undefined;
		const again = await runShell(
			sandboxedCommand(
				"echo x > vendor/lib/a.txt",
				"project-write",
				placeOf(start),
				probe,
				undefined,
				(found) => {
					second = found;
				},
			),
		);
		expect(again.code).toBe(0);
		expect(second?.places.map((place) => place.path)).toContain(
			join(start.search.project, "vendor", "lib", ".git"),
		);
		expect(second && placesCreatedSince(second)).toEqual([]);
	});
});
