import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import type { Origin } from "../../src/origin/origin.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { loadPolicy } from "../../src/policy/load-policy.ts";
import { REPO_ROOT } from "../harness/paths.ts";

/** The README's "A first policy" must load and do what the README says it does. */
const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const example = /### A first policy\s+```jsonc\n([\s\S]*?)\n```/.exec(readme)?.[1];

const root = mkdtempSync(path.join(tmpdir(), "pph-readme-"));
const home = path.join(root, "home");
const cwd = path.join(root, "project");
const agentDir = path.join(home, ".pi", "agent");
let bash: BashParser;
let policy: EffectivePolicy;

beforeAll(async () => {
	if (!example) throw new Error("README has no `### A first policy` jsonc block");
	mkdirSync(path.join(agentDir, "pi-permission-hub"), { recursive: true });
	mkdirSync(cwd, { recursive: true });
	writeFileSync(path.join(agentDir, "pi-permission-hub", "config.json"), example);
	bash = await loadBashParser();
	policy = loadPolicy({ agentDir, cwd, homeDir: home, projectTrusted: false });
});
afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));

function modeOf(tool: string, input: Record<string, unknown>, origin: Origin = { kind: "human" }): string {
	const action = classifyAction(
		{ tool, input, cwd },
		{ bash, extraCommandTiers: [], toolTiers: {}, toolAnnotations: () => undefined, homeDir: home },
	);
	return decide(action, policy, { origin, grants: [], parkedApproval: null }).mode;
}

describe("the README's first policy", () => {
	it("is a valid config with no warnings", () => {
		expect(policy.configErrors).toEqual([]);
		expect(policy.warnings).toEqual([]);
	});

	it("does what the README says", () => {
		expect(modeOf("bash", { command: "git push --force origin main" })).toBe("deny");
		expect(modeOf("read", { path: path.join(home, ".ssh", "id_ed25519") })).toBe("deny");
		expect(modeOf("write", { path: "config/.env", content: "x" })).toBe("deny");
		expect(modeOf("bash", { command: "git push origin feature" })).toBe("ask");
		expect(modeOf("bash", { command: "npm test" })).toBe("auto");
		expect(modeOf("write", { path: "src/a.ts", content: "x" })).toBe("auto");
		expect(modeOf("read", { path: "/etc/hosts" })).toBe("ask");
		expect(modeOf("read", { path: "README.md" })).toBe("auto");
		expect(modeOf("bash", { command: "sudo ls" })).toBe("deny");
		expect(modeOf("bash", { command: "ls" }, { kind: "ci", provider: "github-actions" })).toBe("deny");
	});
});
