import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PathTouch } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { makePathTouch, pathContext, realpathOfLongestPrefix } from "../../src/classify/paths.ts";
import { bashParser, classifyBash, depsFor, HOME, partFor } from "./classify-fixture.ts";

let bash: BashParser;
let root: string;
let cwd: string;
let outside: string;

beforeAll(async () => {
	bash = await bashParser();
	root = realpathSync(mkdtempSync(path.join(tmpdir(), "classify-paths-")));
	cwd = path.join(root, "project");
	outside = path.join(root, "outside");
	mkdirSync(path.join(cwd, "src"), { recursive: true });
	mkdirSync(outside);
	writeFileSync(path.join(outside, "secret.txt"), "s");
	writeFileSync(path.join(cwd, "src", "a.ts"), "a");
	symlinkSync(outside, path.join(cwd, "escape"));
	symlinkSync(path.join(outside, "not-yet"), path.join(cwd, "dangling"));
	symlinkSync(path.join(cwd, "loop-b"), path.join(cwd, "loop-a"));
	symlinkSync(path.join(cwd, "loop-a"), path.join(cwd, "loop-b"));
	mkdirSync(path.join(root, "alias-target"));
	symlinkSync(cwd, path.join(root, "alias"));
});

afterAll(() => {
	rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

function touch(typed: string, access: "read" | "write" = "read", dir = cwd): PathTouch {
	return makePathTouch(typed, access, { known: true, dir }, pathContext(cwd, HOME, `${HOME}/.pi/agent`));
}

describe("makePathTouch", () => {
	it("resolves relative paths against the cwd and keeps them inside", () => {
		const result = touch("src/a.ts");
		expect(result).toEqual({
			access: "read",
			typed: "src/a.ts",
			absolute: path.join(cwd, "src/a.ts"),
			resolved: path.join(cwd, "src/a.ts"),
			outsideCwd: false,
		});
	});

	it("resolves paths that do not exist yet through their longest existing prefix", () => {
		const result = touch("src/new/deeper/file.ts", "write");
		expect(result.resolved).toBe(path.join(cwd, "src/new/deeper/file.ts"));
		expect(result.outsideCwd).toBe(false);
	});

	it("catches a symlink inside the cwd that points outside", () => {
		const result = touch("escape/secret.txt");
		expect(result.absolute).toBe(path.join(cwd, "escape/secret.txt"));
		expect(result.resolved).toBe(path.join(outside, "secret.txt"));
		expect(result.outsideCwd).toBe(true);
		expect(touch("escape/new-file", "write").resolved).toBe(path.join(outside, "new-file"));
	});

	it("follows a dangling symlink to the file a write would create", () => {
		const result = touch("dangling", "write");
		expect(result.resolved).toBe(path.join(outside, "not-yet"));
		expect(result.outsideCwd).toBe(true);
	});

	it("resolves `..` after a symlink from the link's target, as the kernel does", () => {
		const result = touch("escape/../outside/secret.txt");
		expect(result.absolute).toBe(path.join(cwd, "outside/secret.txt"));
		expect(result.resolved).toBe(path.join(outside, "secret.txt"));
		expect(result.outsideCwd).toBe(true);
	});

	it("treats symlink loops as outside the cwd", () => {
		expect(realpathOfLongestPrefix(path.join(cwd, "loop-a", "x"))).toBeUndefined();
		expect(touch("loop-a/x").outsideCwd).toBe(true);
	});

	it("accepts a session cwd reached through a symlink", () => {
		const viaAlias = path.join(root, "alias");
		const context = pathContext(viaAlias, HOME, `${HOME}/.pi/agent`);
		const result = makePathTouch("src/a.ts", "read", { known: true, dir: viaAlias }, context);
		expect(result.resolved).toBe(path.join(cwd, "src/a.ts"));
		expect(result.outsideCwd).toBe(false);
	});

	it("expands ~ to the home directory", () => {
		expect(touch("~").absolute).toBe(HOME);
		expect(touch("~/.ssh/id_rsa").absolute).toBe(`${HOME}/.ssh/id_rsa`);
		expect(touch("~/.ssh/id_rsa").outsideCwd).toBe(true);
	});

	it("never throws on empty or NUL-carrying input and reports it outside the cwd", () => {
		for (const typed of ["", "a\0b", "\0"]) {
			const result = touch(typed, "write");
			expect(result.outsideCwd).toBe(true);
		}
	});

	it("reports paths under an unknown directory as outside the cwd", () => {
		const context = pathContext(cwd, HOME, `${HOME}/.pi/agent`);
		const result = makePathTouch("foo", "write", { known: false, label: "$DIR" }, context);
		expect(result).toMatchObject({ absolute: "$DIR/foo", outsideCwd: true });
		expect(makePathTouch("/abs", "read", { known: false, label: "$DIR" }, context).absolute).toBe("/abs");
	});
});

function pathsOf(command: string): PathTouch[] {
	return classifyBash(bash, command, { cwd }).parts.flatMap((part) => part.paths);
}

function summary(touches: readonly PathTouch[]): string[] {
	return touches.map((t) => `${t.access} ${t.typed}${t.outsideCwd ? " (outside)" : ""}`);
}

describe("paths of bash commands", () => {
	const cases: ReadonlyArray<readonly [string, readonly string[]]> = [
		["cat src/a.ts ../outside/secret.txt", ["read src/a.ts", "read ../outside/secret.txt (outside)"]],
		["head -n 5 src/a.ts", ["read src/a.ts"]],
		["tail -c 10 -n 3 src/a.ts", ["read src/a.ts"]],
		["grep -n pattern src/a.ts src", ["read src/a.ts", "read src"]],
		["grep -e one -e two src", ["read src"]],
		["rg -g '*.ts' todo src", ["read src"]],
		["diff -u a b", ["read a", "read b"]],
		["wc -l a b", ["read a", "read b"]],
		["rm -rf build dist", ["write build", "write dist"]],
		["rm -- -weird", ["write -weird"]],
		["rmdir d", ["write d"]],
		["mv a b c/", ["write a", "write b", "write c/"]],
		["cp a b dest", ["read a", "read b", "write dest"]],
		["cp -t dest a b", ["write dest", "read a", "read b"]],
		["touch -r ref new", ["read ref", "write new"]],
		["mkdir -p -m 755 a/b", ["write a/b"]],
		["tee -a log1 log2", ["write log1", "write log2"]],
		["ln -s target link", ["read target", "write link"]],
		["chmod -R 755 dir", ["write dir"]],
		["chmod -x script", ["write script"]],
		["chown me:me f", ["write f"]],
		["truncate -s 0 f", ["write f"]],
		["sed -i s/a/b/ f g", ["write f", "write g"]],
		["sed -e s/a/b/ -e s/c/d/ f", ["read f"]],
		["sed s/a/b/ f", ["read f"]],
		// `r FILE` reads FILE, so read rules see it.
		["sed 'r secret.txt' f", ["read f", "read secret.txt"]],
		// A failed proof still names what it found: the directory sort -T writes into.
		["sort -T tmpdir f", ["read f", "write tmpdir"]],
		["dd if=in.img of=out.img bs=1M", ["read in.img", "write out.img"]],
		["shred -n 3 -u f", ["write f"]],
		["sort -o out in", ["write out", "read in"]],
		["uniq in out", ["read in", "write out"]],
		["jq -r .a f.json", ["read f.json"]],
		["find src -name '*.ts' -delete", ["write src"]],
		["find src ../outside -type f", ["read src", "read ../outside (outside)"]],
		["find . -exec rm {} \\;", ["read .", "write ."]],
		["tar -czf out.tgz src", ["write out.tgz", "read src"]],
		["tar xzf in.tgz", ["read in.tgz", "write ."]],
		["tar -xf in.tar -C /tmp/x", ["read in.tar", "write /tmp/x (outside)"]],
		["unzip a.zip -d out", ["read a.zip", "write out"]],
		["curl -o out.html https://x", ["write out.html"]],
		["curl -d @body.json -F file=@up.bin https://x", ["read body.json", "read up.bin"]],
		["curl -d @- https://x", []],
		["wget -O page.html https://x", ["write page.html"]],
		["scp host:/remote local", ["write local"]],
		["scp local.txt host:/remote", ["read local.txt"]],
		["echo hi > out.txt", ["write out.txt"]],
		["echo hi >> out.txt 2> err.txt", ["write out.txt", "write err.txt"]],
		["cmd &> all.log", ["write all.log"]],
		["cmd >| forced.txt", ["write forced.txt"]],
		["cmd < input.txt", ["read input.txt"]],
		["cmd > /dev/null 2>&1 < /dev/null", []],
		["cmd 2>/dev/stderr >&2 3>&-", []],
		["cat <<< 'text'", []],
		["{ a; b; } > group.log", ["write group.log"]],
		["x=$(< input.txt)", ["read input.txt"]],
		["./tool --flag=../x ./a ../b c", ["read ./a", "read ../b (outside)"]],
		["tool https://x/y file.txt", []],
		["cat ~/.ssh/config", ["read ~/.ssh/config (outside)"]],
		["cat $HOME/.aws/credentials", ["read $HOME/.aws/credentials (outside)"]],
		['cat "~/literal"', ["read ~/literal"]],
		["cat ~other/x", ["read ~other/x (outside)"]],
		["rm $FILE", ["write $FILE (outside)"]],
		["rm *.tmp", ["write *.tmp"]],
		["rm ../*.tmp", ["write ../*.tmp (outside)"]],
		["git add src", []],
		["ssh host rm -rf /tmp/x > local.log", ["write local.log"]],
		["echo $(cat secret)", ["read secret"]],
		["xargs rm", ["write (operands from xargs input) (outside)"]],
		["xargs wc -l", []],
		["source ./env.sh", ["read ./env.sh"]],
	];
	for (const [command, expected] of cases) {
		it(command, () => {
			expect(summary(pathsOf(command))).toEqual(expected);
		});
	}

	it("resolves through symlinks for bash paths too", () => {
		const [result] = pathsOf("cat escape/secret.txt");
		expect(result?.resolved).toBe(path.join(outside, "secret.txt"));
		expect(result?.outsideCwd).toBe(true);
	});
});

describe("cd tracking", () => {
	it("resolves later relative paths against a literal cd", () => {
		const action = classifyBash(bash, "cd src && cat a.ts; cd .. && rm x", { cwd });
		expect(partFor(action, "cat a.ts").paths[0]?.absolute).toBe(path.join(cwd, "src/a.ts"));
		expect(partFor(action, "rm x").paths[0]?.absolute).toBe(path.join(cwd, "x"));
	});

	it("a cd that leaves the cwd makes later paths outside", () => {
		const action = classifyBash(bash, "cd ../outside; cat secret.txt", { cwd });
		expect(partFor(action, "cat secret.txt").paths[0]).toMatchObject({
			absolute: path.join(outside, "secret.txt"),
			outsideCwd: true,
		});
	});

	it("a non-literal cd makes later relative paths unresolvable", () => {
		const action = classifyBash(bash, 'cd "$DIR" && rm -rf build && rm /abs', { cwd });
		expect(partFor(action, "rm -rf build").paths[0]).toMatchObject({
			absolute: "$DIR/build",
			outsideCwd: true,
		});
		expect(partFor(action, "rm /abs").paths[0]?.absolute).toBe("/abs");
	});

	it("cd - and popd are unknown, bare cd is home", () => {
		expect(partFor(classifyBash(bash, "cd -; rm x", { cwd }), "rm x").paths[0]?.outsideCwd).toBe(true);
		expect(partFor(classifyBash(bash, "popd; rm x", { cwd }), "rm x").paths[0]?.outsideCwd).toBe(true);
		expect(partFor(classifyBash(bash, "cd; rm x", { cwd }), "rm x").paths[0]?.absolute).toBe(`${HOME}/x`);
		expect(partFor(classifyBash(bash, "cd ~/w && rm x", { cwd }), "rm x").paths[0]?.absolute).toBe(
			`${HOME}/w/x`,
		);
	});

	it("a cd in a subshell, pipeline, substitution or background job does not leak", () => {
		for (const command of [
			"(cd /tmp); rm x",
			"cd /tmp | true; rm x",
			"echo $(cd /tmp); rm x",
			"cd /tmp & rm x",
		]) {
			const action = classifyBash(bash, command, { cwd });
			expect(partFor(action, "rm x").paths[0]?.absolute, command).toBe(path.join(cwd, "x"));
		}
	});

	it("a cd inside a group or a branch carries over", () => {
		const action = classifyBash(bash, "{ cd src; }; if true; then cd ..; cd src; fi; cat a.ts", { cwd });
		expect(partFor(action, "cat a.ts").paths[0]?.absolute).toBe(path.join(cwd, "src/a.ts"));
	});

	it("env -C runs the inner command elsewhere", () => {
		const action = classifyBash(bash, "env -C ../outside rm secret.txt", { cwd });
		expect(partFor(action, "rm secret.txt").paths[0]).toMatchObject({
			absolute: path.join(outside, "secret.txt"),
			outsideCwd: true,
		});
	});
});

describe("paths of pi's file tools", () => {
	it("mirror pi's own path handling (@ prefix, file URL, ~)", () => {
		const deps = depsFor(bash);
		const read = (p: string) =>
			classifyAction({ tool: "read", input: { path: p }, cwd }, deps).parts[0]?.paths[0];
		expect(read("@src/a.ts")?.absolute).toBe(path.join(cwd, "src/a.ts"));
		expect(read(`file://${outside}/secret.txt`)).toMatchObject({
			absolute: path.join(outside, "secret.txt"),
			outsideCwd: true,
		});
		expect(read("~/.bashrc")?.absolute).toBe(`${HOME}/.bashrc`);
		expect(read("escape/secret.txt")?.outsideCwd).toBe(true);
	});
});

describe("a child's directory outside the root's project (adr/0008)", () => {
	it("inside the child's cwd yet outside the root's project is outside; inside both is inside", () => {
		// A child approved to run in `outside` writes there: its cwd, but not the project.
		const deps = depsFor(bash, { projectDir: cwd });
		const write = (p: string, at: string) =>
			classifyAction({ tool: "write", input: { path: p, content: "x" }, cwd: at }, deps).parts[0]?.paths[0];
		expect(write(path.join(outside, "bin", "git"), outside)?.outsideCwd).toBe(true);
		expect(write("bin/git", outside)?.outsideCwd).toBe(true);
		// A child in a subdirectory of the project: its own directory is the narrower one.
		expect(write("src/b.ts", cwd)?.outsideCwd).toBe(false);
		expect(write("b.ts", path.join(cwd, "src"))?.outsideCwd).toBe(false);
		expect(write(path.join(cwd, "c.ts"), path.join(cwd, "src"))?.outsideCwd).toBe(true);
	});
});
