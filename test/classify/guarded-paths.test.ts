/**
 * The gate guards its own files (adr/0014): a write to them, by any tool or command, is `privileged`, only a
 * human may allow it (no rule, grant or link), and reading the inbox is refused. Real directories: the guard
 * follows symlinks and looks inside a directory a command writes into.
 */
import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClassifiedAction, ToolCall } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { buildEffectivePolicy } from "../../src/policy/build-effective-policy.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { parseConfigText } from "../../src/policy/parse-config-text.ts";
import { bashParser, depsFor } from "./classify-fixture.ts";
import { createGuardedWorld, type GuardedWorld, guardOf } from "./guarded-world.ts";
import { READS_ABOVE_THE_INBOX } from "./read-corpus.ts";

let bash: BashParser;
let world: GuardedWorld;
let root: string;
let home: string;
let agentDir: string;
let project: string;

beforeAll(async () => {
	bash = await bashParser();
	world = await createGuardedWorld("pph-guard-");
	({ root, home, agentDir, project } = world);
	symlinkSync(path.join(home, ".bashrc"), path.join(project, "innocent.txt"));
	symlinkSync(home, path.join(project, "to-home"));
});

afterAll(() => world.remove());

const classify = (call: Omit<ToolCall, "cwd">, cwd?: string): ClassifiedAction => world.classify(call, cwd);

const run = (command: string, cwd?: string) => classify({ tool: "bash", input: { command } }, cwd);

describe("writes to what the gate guards are privileged and human-only, whatever writes them", () => {
	it.each([
		["echo '{}' > ~/.pi/agent/pi-permission-hub/config.json", "the gate's config, by a redirect"],
		["cp x ~/.pi/agent/settings.json", "pi's settings, by cp"],
		["tee -a ~/.pi/agent/pi-permission-hub/audit.jsonl", "the audit log, by tee"],
		["touch ~/.pi/agent/extensions/evil.ts", "pi's extensions"],
		["sed -i s/deny/allow/ .pi/pi-permission-hub.json", "the project's policy, by sed -i"],
		["mkdir -p .pi/extensions", "the project's .pi/"],
		["echo x >> .git/config", "git's config"],
		["cat > .git/hooks/pre-commit", "a git hook"],
		["mv evil .git", "the .git directory itself"],
		["echo 'rm -rf ~' >> ~/.bashrc", "a shell start-up file"],
		["cp evil ~/.gitconfig", "git's user config"],
		["echo x > ~/.ssh/authorized_keys", "ssh's authorized keys"],
		["cp .bashrc ~", "the home directory, which holds the start-up files"],
		["cp -r evil/. .", "a directory that holds .git"],
		["echo x > innocent.txt", "a symlink to a start-up file"],
		['rm -f "$FILE"', "a path known only at run time"],
	])("%s (%s)", (command) => {
		const action = run(command);
		expect(action.tier).toBe("privileged");
		expect(guardOf(action)).toBe("human");
	});

	it("through the write and edit tools too", () => {
		const config = path.join(agentDir, "pi-permission-hub", "config.json");
		const write = classify({ tool: "write", input: { path: config, content: "{}" } });
		expect([write.tier, guardOf(write)]).toEqual(["privileged", "human"]);
		const edit = classify({
			tool: "edit",
			input: { path: ".git/config", edits: [{ oldText: "a", newText: "b" }] },
		});
		expect([edit.tier, guardOf(edit)]).toEqual(["privileged", "human"]);
	});

	it("reading the inbox is refused; reading the config is a read", () => {
		const inbox = path.join(agentDir, "pi-permission-hub", "inbox");
		expect(guardOf(run(`cat ${inbox}/request.json`))).toBe("refuse");
		expect(guardOf(run(`ls ${inbox}`))).toBe("refuse");
		expect(guardOf(classify({ tool: "read", input: { path: `${inbox}/x.json` } }))).toBe("refuse");
		const config = run("cat ~/.pi/agent/pi-permission-hub/config.json");
		expect([config.tier, guardOf(config)]).toEqual(["read", null]);
	});

	it.each([...READS_ABOVE_THE_INBOX, "diff -r --no-dereference ~/.pi/agent ../plain", "grep -r foo to-home"])(
		"%s reads everything below a directory holding the inbox: only a human may allow it",
		(command) => {
			const action = run(command);
			expect([action.tier, guardOf(action)]).toEqual(["privileged", "human"]);
		},
	);

	it.each([
		"grep -r foo .",
		"rg foo src",
		"ls ~",
		"grep foo ~/notes",
		"du -s ~/.pi/agent/pi-permission-hub/x",
	])("%s does not reach the inbox and stays read", (command) => {
		expect(run(command).tier).toBe("read");
	});

	it("pi's grep and find tools on a directory holding the inbox: only a human may allow them", () => {
		for (const tool of ["grep", "find"]) {
			const above = classify({ tool, input: { pattern: "x", path: path.join(home, ".pi") } });
			expect([above.tier, guardOf(above)]).toEqual(["privileged", "human"]);
			const inProject = classify({ tool, input: { pattern: "x", path: "src" } });
			expect([inProject.tier, guardOf(inProject)]).toEqual(["read", null]);
		}
	});

	it("ordinary writes are not guarded", () => {
		for (const command of ["cp a.txt src/", "echo x > src/notes.txt", "mkdir -p build", "touch README.md"]) {
			const action = run(command);
			expect([action.tier, guardOf(action)], command).toEqual(["write", null]);
		}
		const elsewhere = run("cp a.txt .", path.join(root, "plain"));
		expect(guardOf(elsewhere)).toBeNull();
	});
});

describe("the policy: only a human may allow a guarded write", () => {
	function policy(config: unknown): EffectivePolicy {
		const file = path.join(agentDir, "pi-permission-hub", "config.json");
		return buildEffectivePolicy({
			context: { cwd: project, homeDir: home },
			user: parseConfigText(JSON.stringify(config), file, "user"),
			project: {
				status: "missing",
				file: path.join(project, ".pi", "pi-permission-hub.json"),
				scope: "project",
			},
			managed: { status: "missing", file: "/etc/pi-permission-hub/config.json", scope: "managed" },
		});
	}
	const origin = { kind: "human" } as const;

	it("asks though allow rules, an auto tier and a session grant all cover it, and offers no grant", () => {
		const permissive = policy({
			tiers: { write: "auto", privileged: "auto" },
			grantCeiling: { tier: "privileged", reason: "testing the guard" },
			rules: [
				{ surface: "command", pattern: "echo *", action: "allow" },
				{ surface: "path", pattern: "~/**", action: "allow" },
			],
		});
		expect(permissive.configErrors).toEqual([]);
		const action = run("echo x >> ~/.bashrc");
		const grant = {
			id: "g",
			surface: "tool" as const,
			pattern: "bash",
			scope: "session" as const,
			limit: { tier: "privileged" as const, outsideCwd: true },
			grantedAt: "2026-01-01T00:00:00.000Z",
		};
		const decision = decide(action, permissive, { origin, grants: [grant], parkedApproval: null });
		expect(decision.mode).toBe("ask");
		if (decision.mode !== "ask") return;
		expect(decision.basis.kind).toBe("guard");
		expect(decision.humanOnly).toBe(true);
		expect(decision.grantable).toBe(false);
	});

	it("a deny rule still wins, and the inbox is denied whatever the rules say", () => {
		const denying = policy({ rules: [{ surface: "path", pattern: "~/.bashrc", action: "deny" }] });
		expect(
			decide(run("echo x >> ~/.bashrc"), denying, { origin, grants: [], parkedApproval: null }).mode,
		).toBe("deny");
		const allowing = policy({ rules: [{ surface: "command", pattern: "cat *", action: "allow" }] });
		const inbox = run(`cat ${agentDir}/pi-permission-hub/inbox/r.json`);
		const decision = decide(inbox, allowing, { origin, grants: [], parkedApproval: null });
		expect([decision.mode, decision.basis.kind]).toEqual(["deny", "guard"]);
	});
});

describe("the guarded locations as the environment spells them", () => {
	it("a home with a trailing slash, or /, still guards its start-up files", () => {
		const withSlash = classifyAction(
			{ tool: "bash", input: { command: "echo x >> ~/.bashrc" }, cwd: project },
			depsFor(bash, { homeDir: `${home}/`, agentDir: `${agentDir}/` }),
		);
		expect([withSlash.tier, guardOf(withSlash)]).toEqual(["privileged", "human"]);
		const rootHome = classifyAction(
			{ tool: "bash", input: { command: "echo x >> /.profile" }, cwd: project },
			depsFor(bash, { homeDir: "/", agentDir }),
		);
		expect([rootHome.tier, guardOf(rootHome)]).toEqual(["privileged", "human"]);
	});
});
