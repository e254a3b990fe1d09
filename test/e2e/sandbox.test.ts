/**
 * The sandbox in real pi (adr/0017): real pi, the built extension, real bubblewrap, a repository someone else
 * prepared — its `.git/config` names a program git runs on a plain `git status`.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	cleanupSandboxes,
	gateSandbox,
	resultOf,
	scriptOf,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(cleanupSandboxes);

const READS = ["git status --short", "git log --oneline", "cat README.md", "ls"];

/** The project as a hostile repository hands it over: git's fsmonitor is a program in the repository. */
function plantFsmonitor(sb: Sandbox): { readonly inProject: string; readonly inHome: string } {
	const dir = sb.workDir;
	const inProject = join(dir, "PLANTED-RAN");
	const inHome = join(sb.home, "PLANTED-RAN");
	writeFileSync(join(dir, "README.md"), "# a project someone else prepared\n");
	const git = (...args: string[]) => spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
	git("init", "-q");
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
	git("add", "README.md");
	git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "readme");
	const monitor = join(dir, ".git", "monitor.sh");
	writeFileSync(monitor, `#!/bin/sh\ntouch '${inProject}' '${inHome}'\n`);
	chmodSync(monitor, 0o755);
	git("config", "core.fsmonitor", monitor);
	return { inProject, inHome };
}

describe("a repository that plants a program on git status (adr/0017)", () => {
	it("with the sandbox on, the model's reads run without a dialog and show their output; the planted program creates nothing", async () => {
		const sb = await gateSandbox();
		const planted = plantFsmonitor(sb);
		await writeUserConfig(sb, { sandbox: { enabled: true } });
		await writeScript(sb, scriptOf(READS.map(bash)));

		const run = await runPrint({
			sandbox: sb,
			prompt: "look around",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});

		const outputs = READS.map((command) => resultOf(run.events, run.toolResults, command));
		expect(outputs.map((r) => r.isError)).toEqual([false, false, false, false]);
		expect(outputs[1]?.text).toContain("readme");
		expect(outputs[2]?.text).toContain("# a project someone else prepared");
		expect(outputs[3]?.text).toContain("README.md");
		expect(existsSync(planted.inProject)).toBe(false);
		expect(existsSync(planted.inHome)).toBe(false);
		const entries = await auditEntries(sb, READS.length);
		// Each audit line says how its command ran.
		expect(entries.map((e) => [e.tier, e.outcome, e.mode, e.sandbox])).toEqual(
			READS.map(() => ["read", "allow", "auto", "read-only"]),
		);
	});

	it("without it (the default for now) the same read runs the planted program: the hole the sandbox closes", async () => {
		const sb = await gateSandbox();
		const planted = plantFsmonitor(sb);
		await writeScript(sb, scriptOf([bash("git status --short")]));

		await runPrint({ sandbox: sb, prompt: "look around", extensions: [EXTENSION_ENTRY], mode: "json" });

		expect(existsSync(planted.inProject)).toBe(true);
		const [entry] = await auditEntries(sb, 1);
		expect(entry?.sandbox).toBeUndefined();
	});
});
