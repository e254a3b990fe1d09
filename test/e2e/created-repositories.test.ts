/**
 * A program the project-write sandbox runs can make a new repository — the sandbox keeps only the places it
 * found read-only (adr/0017) — and such a run never passes silently: real pi, the built extension, real
 * bubblewrap, a hostile model in sandboxed mode (every program runs unasked in the sandbox), and pi-subagents in
 * the root (pi's own bash runs the rewritten command).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { denyAll } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { bash, gateSandbox, resultOf, scriptOf, stopRpcAndCleanUp } from "./gate-support.ts";
import {
	conversationOf,
	GATED_CHILDREN,
	piSubagentsSettings,
	SUBAGENT_TEST_TIMEOUT,
	subagentWorld,
} from "./subagents-support.ts";

afterEach(stopRpcAndCleanUp);

const NOTICE = "pi-permission-hub: this command made places that make later commands run programs:";

/** A script that lays out `packages/ui` as a bare repository whose config names a program for `git status`. */
function bareRepositoryMaker(dir: string, home: string): string {
	const ran = join(home, "FSMONITOR-RAN");
	const script = [
		"import os",
		"os.makedirs('packages/ui/objects', exist_ok=True)",
		"os.makedirs('packages/ui/refs/heads', exist_ok=True)",
		`open('packages/ui/monitor.sh', 'w').write('#!/bin/sh\\ntouch ${ran}\\n')`,
		"os.chmod('packages/ui/monitor.sh', 0o755)",
		"open('packages/ui/config', 'w').write('[core]\\n\\trepositoryformatversion = 0\\n\\tbare = true\\n\\tfsmonitor = ' + os.path.abspath('packages/ui/monitor.sh') + '\\n')",
		"open('packages/ui/HEAD', 'w').write('ref: refs/heads/main\\n')",
	].join("\n");
	writeFileSync(join(dir, "scaffold.py"), `${script}\n`);
	return ran;
}

/**
 * An archive holding a vendored library with its own `.git`, and a script that unpacks it (`tar -x` itself is
 * human-only here: what it writes is not known before it runs, and the project holds a repository).
 */
function vendoredArchive(dir: string): void {
	const staging = join(dir, "..", "staging");
	mkdirSync(join(staging, "vendor", "lib"), { recursive: true });
	writeFileSync(join(staging, "vendor", "lib", "index.js"), "module.exports = 1;\n");
	spawnSync("git", ["init", "-q", join(staging, "vendor", "lib")]);
	spawnSync("tar", ["-cf", join(dir, "vendor.tar"), "-C", staging, "vendor"]);
	writeFileSync(
		join(dir, "unpack.py"),
		"import tarfile\ntarfile.open('vendor.tar').extractall(filter='tar')\n",
	);
}

describe("a program in the project-write sandbox makes a repository", () => {
	it("the human is warned and the model told, naming each new place; a run that makes none says nothing", async () => {
		const sb = await gateSandbox();
		const dir = sb.workDir;
		spawnSync("git", ["init", "-q", dir]);
		const ran = bareRepositoryMaker(dir, sb.home);
		vendoredArchive(dir);
		await writeScript(
			sb,
			scriptOf([bash("python3 scaffold.py")], [bash("python3 unpack.py")], [bash("touch ok.txt")]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "sandboxed"],
			dialog: denyAll,
		});

		const run = await rpc.prompt("scaffold the package and unpack the vendored library");

		expect(run.dialogs).toEqual([]);
		// Both ran, unasked, in the sandbox: what they made is there.
		expect(existsSync(join(dir, "packages", "ui", "HEAD"))).toBe(true);
		expect(existsSync(join(dir, "vendor", "lib", ".git", "config"))).toBe(true);
		expect(existsSync(join(dir, "ok.txt"))).toBe(true);
		const scaffold = resultOf(run.records, run.toolResults, "python3 scaffold.py").text;
		expect(scaffold).toContain(NOTICE);
		expect(scaffold).toContain(
			"packages/ui: a git repository, whose config and hooks git runs programs from",
		);
		const unpack = resultOf(run.records, run.toolResults, "python3 unpack.py").text;
		expect(unpack).toContain("vendor/lib/.git: a git repository");
		expect(unpack).not.toContain("packages/ui");
		expect(resultOf(run.records, run.toolResults, "touch ok.txt").text).not.toContain(NOTICE);
		const warnings = rpc.notifications.filter((n) => n.notifyType === "warning").map((n) => n.message);
		expect(warnings.filter((w) => w.startsWith(NOTICE))).toHaveLength(2);
		// Nothing the planted config names ran inside the gate.
		expect(existsSync(ran)).toBe(false);
	});

	it(
		"with pi-subagents in the root, where pi's own bash runs the rewritten command, the run is reported too",
		async () => {
			const world = await subagentWorld(piSubagentsSettings(GATED_CHILDREN));
			const dir = world.sb.workDir;
			bareRepositoryMaker(dir, world.sb.home);
			await writeScript(world.sb, {
				conversations: [conversationOf(undefined, [bash("python3 scaffold.py")])],
			});
			const rpc = await startRpc({
				sandbox: world.sb,
				extensions: [EXTENSION_ENTRY],
				args: ["--permission-mode", "sandboxed"],
				dialog: denyAll,
				timeoutMs: 60_000,
			});

			const run = await rpc.prompt("scaffold the package");

			expect(run.dialogs).toEqual([]);
			expect(existsSync(join(dir, "packages", "ui", "HEAD"))).toBe(true);
			expect(resultOf(run.records, run.toolResults, "python3 scaffold.py").text).toContain(
				"packages/ui: a git repository",
			);
			expect(rpc.notifications.some((n) => n.message.startsWith(NOTICE))).toBe(true);
		},
		SUBAGENT_TEST_TIMEOUT,
	);
});
