import { mkdirSync, rmSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { configErrorBlockReason } from "../../src/policy/config-error.ts";
import { type ReadText, readTextFromDisk } from "../../src/policy/config-file.ts";
import { projectConfigPath, resolveAgentDir, userConfigPath } from "../../src/policy/config-paths.ts";
import { decide } from "../../src/policy/decide.ts";
import { createPolicyStore, loadPolicy } from "../../src/policy/load-policy.ts";
import { TIERS } from "../../src/vocabulary/tier.ts";
import {
	APPROVED,
	bash,
	ctx,
	pathPart,
	tempDir,
	action as toolAction,
	touch,
	writeFile,
} from "./fixtures.ts";

function world() {
	const root = tempDir();
	const home = join(root, "home");
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(root, "project");
	mkdirSync(cwd, { recursive: true });
	return { home, agentDir, cwd, userFile: userConfigPath(agentDir), projectFile: projectConfigPath(cwd) };
}

type World = ReturnType<typeof world>;

/** The policy for a world, as a session in its project would load it. */
function loadIn(w: World, projectTrusted: boolean) {
	return loadPolicy({ agentDir: w.agentDir, cwd: w.cwd, homeDir: w.home, projectTrusted });
}

const DENY_CURL = `{ "rules": [ { "surface": "command", "pattern": "curl *", "action": "deny", "reason": "no egress" } ] }`;

describe("config paths", () => {
	it("resolves the agent dir from PI_CODING_AGENT_DIR, expanding ~", () => {
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "~/agents/pi" }, "/home/u")).toBe("/home/u/agents/pi");
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "/opt/pi" }, "/home/u")).toBe("/opt/pi");
		expect(resolveAgentDir({}, "/home/u")).toBe("/home/u/.pi/agent");
		expect(resolveAgentDir({ PI_CODING_AGENT_DIR: "" }, "/home/u")).toBe("/home/u/.pi/agent");
		expect(userConfigPath("/opt/pi")).toBe("/opt/pi/pi-permission-hub/config.json");
		expect(projectConfigPath("/work/p")).toBe("/work/p/.pi/pi-permission-hub.json");
	});
});

describe("loading policy files", () => {
	it("missing files are no files: built-in defaults, no errors", () => {
		const w = world();
		const policy = loadIn(w, true);
		expect(policy.configErrors).toEqual([]);
		expect(policy.rules).toEqual([]);
		expect(policy.sources.map((s) => s.state)).toEqual(["missing", "missing", "missing"]);
		expect(policy.tiers.read.mode).toBe("auto");
		expect(policy.tiers.write.mode).toBe("ask");
		expect(policy.tiers.write.ref.origin.file).toBe("built-in");
	});

	it("reads an untrusted project's file not at all", () => {
		const w = world();
		writeFile(w.projectFile, DENY_CURL);
		const reads: string[] = [];
		const readText: ReadText = (file) => {
			reads.push(file);
			return readTextFromDisk(file);
		};
		const policy = loadPolicy({
			agentDir: w.agentDir,
			cwd: w.cwd,
			homeDir: w.home,
			projectTrusted: false,
			readText,
		});
		expect(policy.rules).toEqual([]);
		expect(policy.sources[1]?.state).toBe("not-trusted");
		expect(reads).not.toContain(w.projectFile);
		const trusted = loadIn(w, true);
		expect(trusted.rules.map((r) => r.ref.origin)).toEqual([
			{ file: w.projectFile, jsonPath: "rules[0]", line: 1 },
		]);
	});

	it("an invalid file fails closed: every tier denies and decisions name file, path and line", () => {
		const w = world();
		writeFile(
			w.userFile,
			`{\n  // allow everything\n  "rules": [ { "surface": "tool", "pattern": "*", "action": "alow" } ]\n}\n`,
		);
		const policy = loadIn(w, false);
		for (const tier of TIERS) expect(policy.tiers[tier].mode).toBe("deny");
		const [error] = policy.configErrors;
		expect(error?.file).toBe(w.userFile);
		expect(error?.jsonPath).toBe("rules[0].action");
		expect(error?.line).toBe(3);
		const decision = decide(
			toolAction("read", [pathPart("read", touch("read", join(w.cwd, "a.txt"), undefined, w.cwd))]),
			policy,
			ctx(),
		);
		expect(decision.mode).toBe("deny");
		if (decision.basis.kind !== "config_error") throw new Error("expected a config_error basis");
		expect(configErrorBlockReason(decision.basis.error)).toBe(
			`config error in ${w.userFile} at rules[0].action (line 3, column 51): must be one of "allow", "ask", "deny" (got "alow"); all tool calls are blocked until it is fixed`,
		);
		// Even a parked approval cannot get through a broken config.
		expect(decide(bash(["ls", "read"]), policy, ctx({ parkedApproval: APPROVED })).mode).toBe("deny");
	});

	it("an invalid trusted project file fails closed too; an untrusted one does not matter", () => {
		const w = world();
		writeFile(w.userFile, DENY_CURL);
		writeFile(w.projectFile, `{ "rules": [ ] , "grantCeiling": { "tier": "privileged", "reason": "x" } }`);
		const trusted = loadIn(w, true);
		expect(trusted.configErrors[0]?.file).toBe(w.projectFile);
		expect(trusted.configErrors[0]?.jsonPath).toBe("grantCeiling");
		expect(trusted.tiers.read.mode).toBe("deny");
		const untrusted = loadIn(w, false);
		expect(untrusted.configErrors).toEqual([]);
	});

	it("an unreadable file (a directory in its place) fails closed", () => {
		const w = world();
		mkdirSync(w.userFile, { recursive: true });
		const policy = loadIn(w, false);
		expect(policy.configErrors[0]?.problem).toMatch(/^cannot read the file: .* is not a regular file/);
		expect(policy.configErrors[0]?.line).toBeNull();
		expect(policy.tiers.read.mode).toBe("deny");
	});

	it("a dangling symbolic link as config.json fails closed and names the link's target", () => {
		const w = world();
		mkdirSync(dirname(w.userFile), { recursive: true });
		symlinkSync(join(w.home, "dotfiles", "pi-permission-hub.json"), w.userFile);
		const policy = loadIn(w, false);
		expect(policy.configErrors[0]?.problem).toBe(
			`cannot read the file: ${w.userFile} is a symbolic link to ${join(w.home, "dotfiles", "pi-permission-hub.json")}, which does not exist`,
		);
		expect(policy.tiers.read.mode).toBe("deny");
	});

	it("a file, or a dangling link, where the pi-permission-hub directory should be fails closed", () => {
		const w = world();
		writeFile(dirname(w.userFile), "not a directory");
		const policy = loadIn(w, false);
		expect(policy.configErrors[0]?.problem).toBe(
			`cannot read the file: ${dirname(w.userFile)} is not a directory, but the config ${w.userFile} should be inside it`,
		);
		expect(policy.tiers.write.mode).toBe("deny");

		const linked = world();
		mkdirSync(linked.agentDir, { recursive: true });
		symlinkSync(join(linked.home, "gone"), dirname(linked.userFile));
		const viaLink = loadPolicy({ ...linked, homeDir: linked.home, projectTrusted: false });
		expect(viaLink.configErrors[0]?.problem).toMatch(/is a symbolic link to .*gone, which does not exist$/);
	});

	it("a trusted project whose .pi is a file fails closed; a project without .pi has no config", () => {
		const w = world();
		writeFile(join(w.cwd, ".pi"), "");
		const policy = loadIn(w, true);
		expect(policy.configErrors.map((error) => error.scope)).toEqual(["project"]);
		expect(policy.tiers.read.mode).toBe("deny");
		const plain = world();
		const none = loadIn(plain, true);
		expect(none.configErrors).toEqual([]);
	});
});

describe("policy store cache", () => {
	function countingReader(): { readText: ReadText; reads: string[] } {
		const reads: string[] = [];
		return {
			reads,
			readText: (file) => {
				reads.push(file);
				return readTextFromDisk(file);
			},
		};
	}

	it("does not re-parse unchanged files, and returns the same policy object", () => {
		const w = world();
		writeFile(w.userFile, DENY_CURL);
		writeFile(w.projectFile, `{ "tiers": { "spend": "deny" } }`);
		const { readText, reads } = countingReader();
		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => true, readText });
		const first = store.current();
		const second = store.current();
		expect(second).toBe(first);
		expect(reads).toEqual([w.userFile, w.projectFile]);
		expect(first.tiers.spend.mode).toBe("deny");
	});

	it("re-parses a file whose size or mtime changed, and only that file", () => {
		const w = world();
		writeFile(w.userFile, DENY_CURL);
		writeFile(w.projectFile, `{ "tiers": { "spend": "deny" } }`);
		const { readText, reads } = countingReader();
		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => true, readText });
		store.current();
		writeFile(w.userFile, `{ "tiers": { "write": "deny" } }`);
		const changed = store.current();
		expect(changed.tiers.write.mode).toBe("deny");
		expect(changed.rules).toEqual([]);
		expect(reads).toEqual([w.userFile, w.projectFile, w.userFile]);

		// Same size, new mtime: still noticed.
		const sameSize = `{ "tiers": { "write": "ask"  } }`;
		writeFile(w.userFile, sameSize.padEnd(statSync(w.userFile).size));
		const later = new Date(Date.now() + 5000);
		utimesSync(w.userFile, later, later);
		expect(store.current().tiers.write.mode).toBe("ask");
		expect(reads.filter((f) => f === w.userFile)).toHaveLength(3);
	});

	it("notices a file appearing and disappearing", () => {
		const w = world();
		const { readText, reads } = countingReader();
		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => true, readText });
		expect(store.current().rules).toEqual([]);
		expect(reads).toEqual([]);
		writeFile(w.userFile, DENY_CURL);
		expect(store.current().rules).toHaveLength(1);
		writeFile(w.userFile, "{}");
		expect(store.current().rules).toHaveLength(0);
	});

	it("notices a config turning into a dangling link, and fails closed until it is repaired", () => {
		const w = world();
		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => true });
		writeFile(w.userFile, DENY_CURL);
		expect(store.current().rules).toHaveLength(1);
		rmSync(w.userFile);
		symlinkSync(join(w.home, "missing.json"), w.userFile);
		expect(store.current().configErrors[0]?.problem).toMatch(/is a symbolic link to .*missing\.json/);
		expect(store.current().tiers.read.mode).toBe("deny");
		rmSync(w.userFile);
		expect(store.current().configErrors).toEqual([]);
	});

	it("re-merges when trust flips, without re-reading the user file", () => {
		const w = world();
		writeFile(w.userFile, DENY_CURL);
		writeFile(
			w.projectFile,
			`{ "rules": [ { "surface": "command", "pattern": "wget *", "action": "deny" } ] }`,
		);
		let trusted = false;
		const { readText, reads } = countingReader();
		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => trusted, readText });
		expect(store.current().rules.map((r) => r.ref.pattern)).toEqual(["curl *"]);
		trusted = true;
		expect(store.current().rules.map((r) => r.ref.pattern)).toEqual(["curl *", "wget *"]);
		trusted = false;
		expect(store.current().rules.map((r) => r.ref.pattern)).toEqual(["curl *"]);
		expect(reads).toEqual([w.userFile, w.projectFile]);
	});

	it("fails closed when the trust check throws, and when a file becomes invalid", () => {
		const w = world();
		writeFile(w.userFile, DENY_CURL);
		const throwing = createPolicyStore({
			...w,
			homeDir: w.home,
			isProjectTrusted: () => {
				throw new Error("no session");
			},
		});
		const policy = throwing.current();
		expect(policy.tiers.read.mode).toBe("deny");
		expect(policy.configErrors[0]?.message).toMatch(
			/could not tell whether pi trusts this project: no session/,
		);

		const store = createPolicyStore({ ...w, homeDir: w.home, isProjectTrusted: () => false });
		expect(store.current().configErrors).toEqual([]);
		writeFile(w.userFile, `{ "rules": [ }`);
		expect(store.current().tiers.read.mode).toBe("deny");
		writeFile(w.userFile, DENY_CURL);
		expect(store.current().configErrors).toEqual([]);
	});
});
