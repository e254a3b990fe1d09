/**
 * Attacks on path resolution (adr/0014): every spelling and every link that lands a write on a guarded path
 * must be human-only. Real directories, links and hard links.
 */
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClassifiedAction, ToolCall } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { decide } from "../../src/policy/decide.ts";
import { loadPolicy } from "../../src/policy/load-policy.ts";
import { bashParser, depsFor } from "./classify-fixture.ts";
import { createGuardedWorld, type GuardedWorld, guardOf } from "./guarded-world.ts";

let bash: BashParser;
let world: GuardedWorld;
let root: string;
let home: string;
let agentDir: string;
let project: string;

beforeAll(async () => {
	bash = await bashParser();
	world = await createGuardedWorld("pph-pathatk-");
	({ root, home, agentDir, project } = world);
	writeFileSync(path.join(project, ".git", "config"), "");
	symlinkSync(".git", path.join(project, "docs"));
	symlinkSync(agentDir, path.join(project, "agent-link"));
	symlinkSync(".git/hooks/post-checkout", path.join(project, "dangling"));
	symlinkSync("chain2", path.join(project, "chain1"));
	symlinkSync(".git/config", path.join(project, "chain2"));
	symlinkSync("loop2", path.join(project, "loop1"));
	symlinkSync("loop1", path.join(project, "loop2"));
	symlinkSync(root, path.join(project, "src", "link-to-outside"));
	symlinkSync("../docs", path.join(project, "src", "up"));
	linkSync(path.join(home, ".bashrc"), path.join(project, "notes.txt"));
	symlinkSync("/proc/self/cwd", path.join(project, "proc-cwd"));
	mkdirSync(path.join(root, "plain", "sub"), { recursive: true });
	symlinkSync(path.join(root, "plain", "sub"), path.join(project, "elsewhere"));
});

afterAll(() => world.remove());

const classify = (call: Omit<ToolCall, "cwd">, cwd?: string): ClassifiedAction => world.classify(call, cwd);

const write = (p: string) => classify({ tool: "write", input: { path: p, content: "x" } });
const shell = (command: string) => classify({ tool: "bash", input: { command } });

describe("spellings and links of a guarded path are human-only", () => {
	it.each([
		"src/../.git/config",
		"./.git//config",
		".git/./hooks/x",
		".git/hooks/",
		".git/.",
		".git",
		"@.git/config",
		"~/.bashrc",
		"@~/.bashrc",
		"docs/config",
		"docs/hooks/pre-commit",
		"docs/new/dir/x",
		"agent-link/pi-permission-hub/config.json",
		"dangling",
		"chain1",
		"src/up/hooks/x",
		"src/link-to-outside/project/.git/config",
		"src/link-to-outside/home/.bashrc",
		"elsewhere/../docs/config",
		"elsewhere/../agent-link/pi-permission-hub/config.json",
		"notes.txt",
		"/proc/self/cwd/.git/config",
	])("write %s", (p) => {
		expect(guardOf(write(p))).toBe("human");
	});

	it.each([
		"echo x > src/../.git/config",
		"echo x > docs/config",
		"echo x > notes.txt",
		"cp /dev/null notes.txt",
		"echo x >> chain1",
		"mkdir -p docs/a && echo x > docs/a/b",
	])("bash %s", (command) => {
		expect(guardOf(shell(command))).toBe("human");
	});
});

describe("pi's read tool opens macOS spellings of a missing path: the inbox under any of them is refused", () => {
	it.each([
		["Kate", "\u212Aate", "a Kelvin sign, whose NFD form is K"],
		["O\u2019Brien", "O'Brien", "a straight quote for the curly one"],
		["Jose\u0301", "Jos\u00e9", "the NFC form of an NFD name"],
	])("home %s typed as %s (%s)", (real, typed) => {
		const homeOf = path.join(root, real);
		const agentOf = path.join(homeOf, ".pi", "agent");
		mkdirSync(path.join(agentOf, "pi-permission-hub", "inbox"), { recursive: true });
		writeFileSync(path.join(agentOf, "pi-permission-hub", "inbox", "r.json"), "{}");
		const read = classifyAction(
			{
				tool: "read",
				input: { path: path.join(root, typed, ".pi/agent/pi-permission-hub/inbox/r.json") },
				cwd: project,
			},
			depsFor(bash, { homeDir: homeOf, agentDir: agentOf }),
		);
		expect(guardOf(read)).toBe("refuse");
	});
});

describe("a path rule read from a real config file matches only what it names", () => {
	function decideWith(rules: unknown[], call: Omit<ToolCall, "cwd">): string {
		const file = path.join(agentDir, "pi-permission-hub", "config.json");
		writeFileSync(file, JSON.stringify({ rules }));
		const policy = loadPolicy({ agentDir, cwd: project, homeDir: home, projectTrusted: false });
		expect(policy.configErrors).toEqual([]);
		const decision = decide(classify(call), policy, {
			origin: { kind: "human" },
			grants: [],
			parkedApproval: null,
		});
		return decision.mode;
	}
	const allowSrc = [{ surface: "write", pattern: "src/**", action: "allow" }];

	it("allow write src/** allows src/ and nothing reached by .. or a link out of it", () => {
		expect(decideWith(allowSrc, { tool: "write", input: { path: "src/a.ts", content: "" } })).toBe("auto");
		for (const p of [
			"src/../.git/hooks/pre-commit",
			"src/link-to-outside/x",
			"src/up/hooks/x",
			"src/../README.md",
			`${project}/src/../../x`,
		]) {
			expect(decideWith(allowSrc, { tool: "write", input: { path: p, content: "" } }), p).not.toBe("auto");
		}
		for (const command of ["echo x > src/../x", "cp a src/link-to-outside/x", "cd src && echo x > ../x"]) {
			expect(decideWith(allowSrc, { tool: "bash", input: { command } }), command).not.toBe("auto");
		}
	});

	it("allow write ** still leaves .git, .pi and the agent dir to a human", () => {
		const all = [
			{ surface: "write", pattern: "**", action: "allow" },
			{ surface: "path", pattern: "/**", action: "allow" },
		];
		for (const p of [".git/config", "docs/x", ".pi/settings.json", "agent-link/x", "notes.txt"]) {
			expect(decideWith(all, { tool: "write", input: { path: p, content: "" } }), p).toBe("ask");
		}
	});

	it("a leading ! is a literal name, not a negation; braces and extglobs stay inside what they spell", () => {
		const bang = [{ surface: "write", pattern: "!src/**", action: "allow" }];
		expect(decideWith(bang, { tool: "write", input: { path: "README.md", content: "" } })).not.toBe("auto");
		const brace = [{ surface: "write", pattern: "{src,docs}/*.md", action: "allow" }];
		expect(decideWith(brace, { tool: "write", input: { path: "src/a.md", content: "" } })).toBe("auto");
		expect(decideWith(brace, { tool: "write", input: { path: "docs/a.md", content: "" } })).toBe("ask");
		const extglob = [{ surface: "write", pattern: "src/!(x)/**", action: "allow" }];
		expect(decideWith(extglob, { tool: "write", input: { path: "src/../.git/a", content: "" } })).toBe("ask");
		expect(decideWith(extglob, { tool: "write", input: { path: "src/up/a", content: "" } })).toBe("ask");
	});
});

describe("cd searches $CDPATH: a cd that may follow it leads somewhere known only at run time", () => {
	it.each([
		"CDPATH=~/.pi cd agent && echo x > settings.json",
		"export CDPATH=~/.pi; cd agent && echo x > settings.json",
		"export $'\\x43DPATH=..'; cd agent-dir && echo x > settings.json",
		"read -r CDPATH <<< ~/.pi; cd agent && echo x > settings.json",
		"printf -v CDPATH %s ~/.pi; cd agent && echo x > settings.json",
		"$setter CDP; cd agent && echo x > settings.json",
		". ./env.sh; cd agent && echo x > settings.json",
	])("%s", (command) => {
		expect(guardOf(shell(command))).toBe("human");
	});

	it("a cd that cannot search it, or a program that cannot set it, stays known", () => {
		for (const command of [
			"cd src && echo x > notes.md",
			"export CDPATH=/x; cd ./src && echo x > notes.md",
			"CDPATH=/x cd ../project/src && echo x > notes.md",
			"cp a src/ && cd src && echo x > notes.md",
		]) {
			expect(guardOf(shell(command)), command).toBeNull();
		}
	});
});

describe("a /proc link is followed by the process that runs the command, not by pi", () => {
	it.each([
		"cd .git && echo x > /proc/self/cwd/config",
		"cd .git && echo x > /proc/thread-self/cwd/config",
		"cd .git && echo x > /dev/fd/../cwd/config",
		"cd .git && echo x > ../proc-cwd/config",
		"cd ~/.pi/agent/pi-permission-hub && cat /proc/self/cwd/inbox/r.json",
	])("%s", (command) => {
		expect(guardOf(shell(command))).toBe("human");
	});

	it("the fd sinks themselves stay sinks", () => {
		for (const command of ["echo x > /dev/fd/2", "echo x > /dev/stderr", "echo x > /proc/self/fd/2"]) {
			expect(guardOf(shell(command)), command).toBeNull();
		}
	});
});

describe("links to the guarded locations: writing where they lead is writing them", () => {
	let linkedHome: string;
	let data: string;
	function classifyLinked(call: Omit<ToolCall, "cwd">): ClassifiedAction {
		return classifyAction(
			{ ...call, cwd: project },
			depsFor(bash, { homeDir: linkedHome, agentDir: path.join(linkedHome, ".pi", "agent") }),
		);
	}
	beforeAll(() => {
		data = path.join(root, "data");
		const realHome = path.join(data, "real-home");
		mkdirSync(path.join(data, "dotfiles", "bash"), { recursive: true });
		mkdirSync(path.join(data, "pi", "agent", "pi-permission-hub", "inbox"), { recursive: true });
		mkdirSync(realHome, { recursive: true });
		linkedHome = path.join(root, "linked-home");
		symlinkSync(realHome, linkedHome);
		writeFileSync(path.join(data, "dotfiles", "bash", ".bashrc"), "");
		symlinkSync(path.join(data, "dotfiles", "bash", ".bashrc"), path.join(realHome, ".bashrc"));
		symlinkSync(path.join(data, "dotfiles", "profile"), path.join(realHome, ".profile"));
		symlinkSync(path.join(data, "pi"), path.join(realHome, ".pi"));
	});

	it.each([
		"data/dotfiles/bash/.bashrc",
		"data/dotfiles/profile",
		"data/pi/agent/pi-permission-hub/config.json",
		"data/pi/agent/extensions/x.ts",
		"data/real-home/.zshrc",
		"data/real-home",
	])("write %s", (under) => {
		const action = classifyLinked({ tool: "write", input: { path: path.join(root, under), content: "" } });
		expect(guardOf(action)).toBe("human");
	});

	it("reading the inbox where a link leads is refused", () => {
		const inbox = path.join(data, "pi", "agent", "pi-permission-hub", "inbox");
		expect(guardOf(classifyLinked({ tool: "read", input: { path: path.join(inbox, "r.json") } }))).toBe(
			"refuse",
		);
		const grep = classifyLinked({ tool: "grep", input: { pattern: "x", path: path.join(data, "pi") } });
		expect(guardOf(grep)).toBe("human");
		expect(
			guardOf(classifyLinked({ tool: "write", input: { path: path.join(data, "notes"), content: "" } })),
		).toBeNull();
	});
});

describe("odd spellings found safe", () => {
	it.each([
		`docs/${"./".repeat(3000)}config`,
		`src/${"x/../".repeat(2000)}../.git/config`,
		".git/hooks/pre-commit\n",
		"docs/.",
		"docs/",
		"./docs//hooks/./x",
		`${"../".repeat(50)}PROJECT/.git/config`,
	])("write %j", (p) => {
		expect(guardOf(write(p.replace("PROJECT", project.slice(1))))).toBe("human");
	});

	it.each([
		"cd src/up && echo x > hooks/x",
		"echo x > 'docs'/\"config\"",
		"echo x > d\\ocs/config",
		"echo x > {docs,src}/config",
		"echo x > do?s/config",
		"echo x > .gi[t]/config",
		"echo x >> .g*/config",
		"cp evil .gi?/hooks/../config",
		"tee -a ./*/config",
		"echo x > */**/config",
	])("bash %s", (command) => {
		expect(guardOf(shell(command))).toBe("human");
	});
});

describe("a glob that bash expands to .. (before 5.2, as macOS's 3.2, or with globskipdots off)", () => {
	it.each(["echo x >> .?/home/.bashrc", "echo x >> .[.]/home/.bashrc", "cp evil .*/home/.bashrc"])(
		"%s writes outside the project: the home's .bashrc is guarded",
		(command) => {
			// The attack, run for real by a bash that matches `..` as older ones do.
			const ran = execFileSync(
				"bash",
				["-c", `shopt -u globskipdots 2>/dev/null; echo ${command.split(" ").at(-1)}`],
				{
					cwd: project,
				},
			);
			expect(ran.toString().trim()).toBe("../home/.bashrc");
			expect(guardOf(shell(command))).toBe("human");
		},
	);
});

describe("a read glob is refused by the inbox files it opens, however it is spelled", () => {
	it.each([
		"cat ~/.pi/agent/pi-permission-hub/inbo?/r.json",
		"cat ~/.pi/agent/pi-permission-hub/i*/*",
		"head ~/.pi/agent/pi-*/inbox/*",
		"cat ~/.pi/agent/**/inbox/*",
		"cat ~/.pi/agent/pi-permission-hub/[i]nbox/r.json",
	])("%s", (command) => {
		writeFileSync(path.join(agentDir, "pi-permission-hub", "inbox", "r.json"), '{"id":"r"}');
		// The attack, run for real: bash opens the inbox's file.
		const ran = execFileSync("bash", ["-c", command.replaceAll("~", home)]);
		expect(ran.toString()).toBe('{"id":"r"}');
		expect(guardOf(shell(command))).toBe("refuse");
	});

	it("a glob naming a directory that holds the inbox, for a command that descends into it: human-only", () => {
		for (const command of ["grep -r id ~/.pi/ag*", "grep -r id ~/.p?"]) {
			expect(guardOf(shell(command)), command).toBe("human");
		}
		mkdirSync(path.join(project, "notes", "2026"), { recursive: true });
		expect(shell("grep -r id notes/*").tier).toBe("read");
	});

	it("a glob with more matches than can be listed reads the whole tree its literal part names", () => {
		// An agent dir with thousands of requests (old sessions' inboxes): past the listing bound the inbox files
		// the glob opens were never checked, and `cat` of them ran unasked.
		const requests = path.join(agentDir, "pi-permission-hub", "inbox", "old-session");
		mkdirSync(requests, { recursive: true });
		for (let i = 0; i < 5_100; i++) writeFileSync(path.join(requests, `r${i}.json`), "{}");
		for (const command of [
			"cat ~/.pi/agent/pi-permission-hub/inbo?/old-session/*",
			"ls ~/.pi/agent/pi-permission-hub/inbo?/old-session/*",
		]) {
			expect(guardOf(shell(command)), command).toBe("human");
		}
		const many = path.join(project, "many");
		mkdirSync(many);
		for (let i = 0; i < 5_100; i++) writeFileSync(path.join(many, `f${i}.txt`), "");
		// Elsewhere nothing guarded is below: no guard (the listing bound still asks, as it did).
		expect(guardOf(shell("cat many/*.txt"))).toBeNull();
	});

	it("a glob that opens nothing guarded stays a read", () => {
		expect(shell("cat src/*.ts").tier).toBe("read");
		expect(shell("cat ~/notes/*.md").tier).toBe("read");
	});
});

describe("~ and $HOME follow the command's own $HOME when it may set one", () => {
	it.each([
		"HOME=.git; echo x > ~/config",
		"export HOME=.git; echo x > $HOME/config",
		"HOME=.git; cd; echo x > config",
		"read HOME <<< .git; cd ~/hooks && echo x > pre-commit",
		"bash -c $'HOME\\x3d.git; echo x > ~/config'",
	])("%s", (command) => {
		expect(guardOf(shell(command))).toBe("human");
	});

	it("without an assignment ~ is the home directory", () => {
		expect(guardOf(shell("echo x > ~/notes/a.md"))).toBeNull();
		expect(shell("echo x > ~/notes/a.md").parts[0]?.paths[0]?.absolute).toBe(path.join(home, "notes/a.md"));
	});
});
