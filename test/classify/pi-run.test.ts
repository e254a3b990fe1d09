/**
 * pi started through bash is a delegation whose child is ungated unless proven otherwise (adr/0011): the attacker's
 * spellings of it are privileged and for a human alone, and `sandbox.exclude` never covers them — while commands
 * that merely name a file called pi, or only print pi's version, are left alone.
 */
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { excludedFromSandbox } from "../../src/gate/sandboxing.ts";
import { pipelineWorld } from "../gate/pipeline-world.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { policyFromConfig } from "../policy/fixtures.ts";
import { bashParser, CWD, depsFor } from "./classify-fixture.ts";

let bash: BashParser;
let dir: string;
beforeAll(async () => {
	bash = await bashParser();
	dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "pph-pi-run-")));
	// A link with an innocent name to pi's cli, as a hostile model would make one.
	symlinkSync(
		path.join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js"),
		path.join(dir, "fmt"),
	);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function classify(command: string, cwd = CWD) {
	return classifyAction({ tool: "bash", input: { command }, cwd }, depsFor(bash));
}

const STARTS_PI = [
	"pi -ne -e ./x.ts -p hi",
	"pi -e ./tools/x.ts",
	"pi install ./evil",
	"pi install npm:evil-extension",
	"./node_modules/.bin/pi -p hi",
	"node node_modules/.bin/pi -e x.ts -p hi",
	"node node_modules/@earendil-works/pi-coding-agent/dist/cli.js -e x.ts",
	"npx pi -e x.ts -p hi",
	"npx @earendil-works/pi-coding-agent -e x.ts",
	// A package runner given pi with a version or tag: the same package (it was network-egress, which trusted ran).
	"npx -y @earendil-works/pi-coding-agent@latest -e x.ts",
	"pnpm dlx @earendil-works/pi-coding-agent@1.6.0 -e x.ts",
	"bunx @earendil-works/pi-coding-agent@latest -e x.ts",
	"env pi -e x.ts",
	"env FOO=1 pi -e x.ts",
	"timeout 60 pi -p hi",
	"nohup pi -p hi &",
	"sh -c 'pi -e x.ts -p hi'",
	"echo hi | pi -p",
	"taskset -c 0 pi -e x.ts",
	"/usr/local/bin/pi -p hi",
	"~/.npm-global/bin/pi -p hi",
];

describe("pi through bash", () => {
	it.each(STARTS_PI)("%s is privileged, for a human alone", (command) => {
		const action = classify(command);
		expect(action.tier).toBe("privileged");
		const part = action.parts.find((p) => p.startsPi === true);
		expect(part?.guard).toMatchObject({ kind: "human", reason: expect.stringContaining("starts pi") });
	});

	it("a link with another name to pi's cli starts pi too (its real path is pi's)", () => {
		for (const command of ["./fmt -e x.ts -p hi", "node fmt -e x.ts"]) {
			const action = classify(command, dir);
			expect(action.tier, command).toBe("privileged");
			expect(
				action.parts.some((p) => p.startsPi === true),
				command,
			).toBe(true);
		}
	});

	it.each([
		"pi --version",
		"pi --help",
		"cat pi",
		"ls src/pi",
		"mkdir -p src/pi",
		"git log -- pi",
		"echo pi",
	])("%s does not start pi", (command) => {
		expect(classify(command).parts.some((p) => p.startsPi === true)).toBe(false);
	});
});

const allowOnce: DialogResult = { kind: "answer", answer: { kind: "allow", scope: "once" } };

describe("the pipeline", () => {
	it("an allow rule, trusted mode and sandbox.exclude together neither run `pi -ne -e ./x.ts` silently nor unsandboxed", async () => {
		const policy = policyFromConfig({
			rules: [{ surface: "command", pattern: "pi *", action: "allow" }],
			sandbox: { exclude: ["pi *"], human: true },
		});
		const { pipeline, presenter } = pipelineWorld(bash, policy, {
			script: [allowOnce],
			permissionMode: "trusted",
		});

		const { outcome } = await pipeline.run({
			kind: "tool_call",
			call: { tool: "bash", input: { command: "pi -ne -e ./x.ts -p hi" }, cwd: CWD },
		});

		expect(presenter.shown).toHaveLength(1);
		expect(outcome).toMatchObject({ outcome: "allow", source: { kind: "user", via: "dialog" } });
		expect(excludedFromSandbox(outcome, policy.sandbox)).toBe(false);
	});
});
