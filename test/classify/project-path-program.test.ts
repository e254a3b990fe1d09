/**
 * A bare name that PATH resolves into the project (adr/0008), from the attacker's side: an activated `.venv` puts
 * `<project>/.venv/bin` first on PATH, and the model plants `.venv/bin/git`. The user's `git status` (silent) and
 * `git push` (approved) would run it. Real files, the real classifier.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { bashParser, depsFor } from "./classify-fixture.ts";

let bash: BashParser;
let project: string;
let planted: string;
beforeAll(async () => {
	bash = await bashParser();
	project = realpathSync(mkdtempSync(path.join(os.tmpdir(), "pph-venv-")));
	mkdirSync(path.join(project, ".venv", "bin"), { recursive: true });
	planted = path.join(project, ".venv", "bin", "git");
	writeFileSync(planted, "#!/bin/sh\necho planted\n");
	chmodSync(planted, 0o755);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

function classify(command: string, searchPath: string) {
	return classifyAction({ tool: "bash", input: { command }, cwd: project }, depsFor(bash, { searchPath }));
}

describe("a bare name PATH resolves into the project", () => {
	it("git with the activated .venv first on PATH: a human is asked, and told which git runs", () => {
		for (const command of ["git status --short", "git push"]) {
			const part = classify(command, `${project}/.venv/bin:/usr/local/bin:/usr/bin:/bin`).parts[0];
			expect(part?.guard, command).toEqual({
				kind: "human",
				reason: expect.stringContaining(`resolves through PATH (entry ${project}/.venv/bin) to ${planted}`),
			});
		}
	});

	it("a relative PATH entry is against the cwd: the same", () => {
		for (const searchPath of [".venv/bin:/usr/bin", "./.venv/bin:/usr/bin"]) {
			expect(classify("git status", searchPath).parts[0]?.guard?.kind, searchPath).toBe("human");
		}
	});

	it("the system git first on PATH, a name the project does not hold, or a shell builtin: nothing to say", () => {
		const systemFirst = `/usr/bin:${project}/.venv/bin`;
		expect(classify("git status", systemFirst).parts[0]?.guard).toBeUndefined();
		const venvFirst = `${project}/.venv/bin:/usr/bin`;
		expect(classify("ls", venvFirst).parts[0]?.guard).toBeUndefined();
		expect(classify("echo hi", venvFirst).parts[0]?.guard).toBeUndefined();
		expect(classify("git status", "/usr/bin:/bin").parts[0]?.guard).toBeUndefined();
	});

	it("a write into a PATH directory of the project is human-only: the same call could run it by a system name", () => {
		const venvFirst = `${project}/.venv/bin:/usr/local/bin:/usr/bin:/bin`;
		const tool = path.join(project, "tool.sh");
		writeFileSync(tool, "#!/bin/sh\necho planted\n");
		chmodSync(tool, 0o755);
		// The attack, run for real: the copy keeps the mode, and the next `ls` is the copy.
		const ran = execFileSync("/bin/sh", ["-c", "cp tool.sh .venv/bin/ls && ls"], {
			cwd: project,
			env: { ...process.env, PATH: venvFirst },
		});
		expect(ran.toString()).toBe("planted\n");
		rmSync(path.join(project, ".venv", "bin", "ls"));

		for (const command of [
			"cp tool.sh .venv/bin/ls && ls",
			"cp -t .venv/bin tool.sh",
			"mv tool.sh .venv/bin/cat",
			"echo x > .venv/bin/grep",
		]) {
			const action = classify(command, venvFirst);
			expect(action.tier, command).toBe("privileged");
			expect(
				action.parts.some((part) =>
					part.paths.some((touch) => touch.guard?.reason.includes("a PATH directory")),
				),
				command,
			).toBe(true);
		}
		expect(classify("cp tool.sh tool2.sh", venvFirst).tier).toBe("write");
		expect(classify("cp tool.sh .venv/bin/ls", "/usr/bin:/bin").tier).toBe("write");
	});
});
