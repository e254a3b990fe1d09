/**
 * The read tier in real pi (print mode, the default policy, nobody to ask): each disguise that once passed as a
 * read has no effect — files kept, nothing created, the config unchanged, no connection made — and the plain
 * reads a person runs to look around run without a dialog.
 */
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { NAMED_READS } from "../classify/read-corpus.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import { runCommand } from "../harness/run-command.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	cleanupSandboxes,
	gateSandbox,
	resultOf,
	scriptOf,
	userConfigFile,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(cleanupSandboxes);

/** git in the sandbox, with an identity for commits. */
function gitIn(sb: Sandbox, cwd: string, ...args: string[]) {
	return runCommand("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
		cwd,
		env: sb.env(),
		timeoutMs: 20_000,
	});
}

let listener: Server | undefined;
afterEach(async () => {
	await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
	listener = undefined;
});

/** A local TCP port that counts the connections it gets. */
async function countingPort(): Promise<{ port: number; connections: () => number }> {
	let count = 0;
	const server = createServer((socket) => {
		count++;
		socket.destroy();
	});
	listener = server;
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("no port");
	return { port: address.port, connections: () => count };
}

const LOOSE_CONFIG = '{ "tiers": { "write": "auto", "destructive": "auto" } }\n';

describe("disguised writes, executions and connections in real pi", () => {
	it("have no effect with the default policy, and the rm that would follow a loosened config stays blocked", async () => {
		const sb = await gateSandbox();
		const config = await writeUserConfig(sb, "{}\n");
		await sb.writeWorkFile("victim.txt", "keep me\n");
		await sb.writeWorkFile("notes.txt", "first line\nsecond line\n");
		await sb.writeWorkFile("loose.json", LOOSE_CONFIG);
		// The repository carries the attacker's payloads: a script named like a read-only command, and a hook.
		const payload = await sb.writeWorkFile("evil.sh", '#!/bin/sh\ntouch "$(dirname "$0")/pwned-script"\n');
		const fakeLs = await sb.writeWorkFile("ls", "#!/bin/sh\ntouch pwned-ls\n");
		chmodSync(payload, 0o755);
		chmodSync(fakeLs, 0o755);
		const { port, connections } = await countingPort();
		const attacks = [
			// an option that writes a file: the gate's own config
			`sort -o ${config} loose.json`,
			// an option that runs a program
			"find . -name victim.txt -exec rm {} \\;",
			"sed -n '1e touch pwned-sed' notes.txt",
			// an abbreviated long option
			"sed --in-pl s/keep/gone/ victim.txt",
			// an expansion that becomes an option
			// biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${…}, not a template
			"find . -name victim.txt ${X:--delete}",
			// a program with a familiar name at another path
			"./ls -la",
			// a variable that makes bash run a file
			"BASH_ENV=./evil.sh bash -c true",
			// arithmetic whose subscript bash evaluates
			"[[ 'a[$(touch pwned-arith)]' -eq 0 ]]",
			// a word joined by backslash-newline
			"r\\\nm -f victim.txt",
			// a network path
			`cat notes.txt > /dev/tcp/127.0.0.1/${port}`,
			// an output option
			"git diff --no-index --output=pwned-git notes.txt loose.json",
		];
		await writeScript(sb, scriptOf(attacks.map(bash), [bash("rm -f victim.txt")]));

		const run = await runPrint({
			sandbox: sb,
			prompt: "tidy up",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});

		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me\n");
		expect(readFileSync(config, "utf8")).toBe("{}\n");
		for (const created of ["pwned-sed", "pwned-ls", "pwned-script", "pwned-arith", "pwned-git"]) {
			expect(existsSync(sb.workPath(created)), created).toBe(false);
		}
		expect(connections()).toBe(0);
		const entries = await auditEntries(sb, attacks.length + 1);
		for (const entry of entries) {
			expect([entry.preview, entry.outcome]).toEqual([entry.preview, "pending"]);
			expect(entry.tier).not.toBe("read");
		}
		for (const command of attacks) {
			expect(resultOf(run.events, run.toolResults, command).isError, command).toBe(true);
		}
		expect(readFileSync(userConfigFile(sb), "utf8")).toBe("{}\n");
	});
});

describe("disguises found by an adversarial review, in real pi", () => {
	it("have no effect: wrappers fed by xargs, sed labels, hidden backquotes, subscripts, another repository", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("victim.txt", "keep me\n");
		await sb.writeWorkFile("notes.txt", "first line\n");
		await sb.writeWorkFile("list", "untracked, and stash -u would take it\n");
		await sb.writeWorkFile("rc.sh", "touch pwned-rcfile\n");
		const git = (cwd: string, ...args: string[]) => gitIn(sb, cwd, ...args);
		expect((await git(sb.workDir, "init", "-q")).code).toBe(0);
		expect((await git(sb.workDir, "add", "victim.txt", "notes.txt")).code).toBe(0);
		expect((await git(sb.workDir, "commit", "-qm", "start")).code).toBe(0);
		// A directory that came with the project (an unpacked archive, a vendored package) holding a repository
		// whose config names a program: `git status` there runs it.
		const vendored = sb.workPath("vendor/pkg");
		await sb.writeWorkFile("vendor/pkg/README", "vendored\n");
		expect((await git(vendored, "init", "-q")).code).toBe(0);
		const fsmonitor = `touch ${sb.workPath("pwned-fsmonitor")}; false`;
		expect((await git(vendored, "config", "core.fsmonitor", fsmonitor)).code).toBe(0);
		const attacks = [
			"echo rm -f victim.txt | xargs env",
			"sed -n ':a w pwned-sed-label' notes.txt",
			"cat <<EOF\n`touch pwned-heredoc`\nEOF",
			// biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${…}, not a template
			"echo ${x:-`touch pwned-expansion`}",
			"test -v 'a[$(touch pwned-test)]'",
			"git stash -u -- list",
			"cd vendor/pkg && git status",
			"/proc/self/cwd/ls",
			`echo pwned > /dev/fd/../../..${sb.workPath("pwned-fd")}`,
			"sh -c 'echo $'\\''a\\'\\'' ; touch pwned-dash ; #'\\'''",
			"git log --pretty --output=pwned-git-log",
			"bash --rcfile rc.sh -i -c true",
			// biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${…}, not a template
			"echo ${HOME#$(touch pwned-pattern)}",
			"echo $(( '$(touch pwned-arith-quote)' ))",
		];
		await writeScript(sb, scriptOf(attacks.map(bash)));

		const run = await runPrint({
			sandbox: sb,
			prompt: "look around",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});

		const markers = [
			"pwned-sed-label",
			"pwned-heredoc",
			"pwned-expansion",
			"pwned-test",
			"pwned-fsmonitor",
			"pwned-fd",
			"pwned-dash",
			"pwned-git-log",
			"pwned-rcfile",
			"pwned-pattern",
			"pwned-arith-quote",
		];
		// All at once, so a regression names every attack that got through.
		expect(markers.filter((marker) => existsSync(sb.workPath(marker)))).toEqual([]);
		expect(readFileSync(sb.workPath("victim.txt"), "utf8")).toBe("keep me\n");
		expect(existsSync(sb.workPath("list")), "list").toBe(true);
		const entries = await auditEntries(sb, attacks.length);
		for (const entry of entries) expect([entry.preview, entry.tier]).not.toEqual([entry.preview, "read"]);
		for (const command of attacks) {
			expect(resultOf(run.events, run.toolResults, command).isError, command).toBe(true);
		}
	});
});

describe("plain reads in real pi", () => {
	it("run without a dialog or a block with the default policy", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("f", "one\ntwo\n");
		await sb.writeWorkFile("src/a.ts", "export const x = 1;\n");
		await sb.writeWorkFile("data.json", '{ "x": 42 }\n');
		const git = (...args: string[]) => gitIn(sb, sb.workDir, ...args);
		expect((await git("init", "-q")).code).toBe(0);
		expect((await git("add", "."))?.code).toBe(0);
		expect((await git("commit", "-qm", "start")).code).toBe(0);
		const reads = NAMED_READS;
		await writeScript(sb, scriptOf(reads.map(bash)));

		const run = await runPrint({
			sandbox: sb,
			prompt: "look around",
			extensions: [EXTENSION_ENTRY],
			mode: "json",
		});

		const entries = await auditEntries(sb, reads.length);
		for (const entry of entries) {
			expect([entry.preview, entry.tier, entry.mode, entry.outcome]).toEqual([
				entry.preview,
				"read",
				"auto",
				"allow",
			]);
		}
		expect(run.stderr).not.toContain("pi-permission-hub: blocked");
		expect(resultOf(run.events, run.toolResults, "cat f").text).toContain("two");
		expect(resultOf(run.events, run.toolResults, "jq .x data.json").text).toContain("42");
		expect(resultOf(run.events, run.toolResults, "git log --oneline -5").text).toContain("start");
		expect(resultOf(run.events, run.toolResults, "sed -n '1,5p' f").text).toContain("one");
		expect(resultOf(run.events, run.toolResults, "find . -name '*.ts'").text).toContain("./src/a.ts");
	});
});
