/**
 * The read tier is earned by proof (adr/0003): the read corpus stays `read`, every attack stays out of it, and
 * rewrites an attacker would try on a read command (an option in a variable, an unknown option, another program
 * of the same name, a word joined by backslash-newline, an option supplied by xargs) never leave it `read`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { bashParser, classifyBash, HOME } from "./classify-fixture.ts";
import { attackCommands, READ_CORPUS } from "./read-corpus.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

function notReadReasons(command: string): string {
	return classifyBash(bash, command)
		.parts.filter((part) => part.tier !== "read")
		.map((part) => part.tierReason)
		.join("; ");
}

describe("the read corpus", () => {
	it.each(READ_CORPUS)("%s is read", (command) => {
		expect(classifyBash(bash, command).tier, notReadReasons(command)).toBe("read");
	});
});

describe("the attack corpus", () => {
	it.each(attackCommands().map(({ attackClass, command }) => [attackClass, command]))(
		"%s: %s is not read",
		(_attackClass, command) => {
			expect(classifyBash(bash, command).tier).not.toBe("read");
		},
	);
});

/** The first simple command of a corpus entry: `head -1 f | wc -l` → `head -1 f`. */
function firstCommand(command: string): {
	readonly name: string;
	readonly rest: string;
	readonly tail: string;
} {
	const end = command.search(/ (\||&&|\|\||;) /);
	const first = end < 0 ? command : command.slice(0, end);
	const tail = end < 0 ? "" : command.slice(end);
	const space = first.indexOf(" ");
	return {
		name: space < 0 ? first : first.slice(0, space),
		rest: space < 0 ? "" : first.slice(space),
		tail,
	};
}

/**
 * Corpus entries a rewrite applies to: a plain command first (not a loop, a test, an assignment or a path).
 * Commands that take no options at all (`echo`, `test`, `true`) are inert whatever their words, so the option
 * rewrites do not apply to them; their rewritten name still must not be read.
 */
const REWRITABLE = READ_CORPUS.filter((command) => /^[a-z][a-z0-9]*( |$)/.test(command));
const TAKES_NO_OPTIONS = new Set(["echo", "test", "[", "true", "pwd", "whoami", "nproc", "uptime"]);
const TAKES_OPTIONS = REWRITABLE.filter((command) => !TAKES_NO_OPTIONS.has(firstCommand(command).name));

const REWRITES: readonly {
	readonly name: string;
	readonly appliesTo: readonly string[];
	readonly rewrite: (command: string) => string;
}[] = [
	{
		name: "an option moved into a variable",
		appliesTo: TAKES_OPTIONS,
		rewrite: (command) => {
			const { name, rest, tail } = firstCommand(command);
			const words = rest.split(" ");
			const option = words.findIndex((word) => word.startsWith("-"));
			if (option < 0) return `${name} $OPTIONS${rest}${tail}`;
			words[option] = "$OPTIONS";
			return `${name}${words.join(" ")}${tail}`;
		},
	},
	{
		name: "an unknown option appended",
		appliesTo: TAKES_OPTIONS,
		rewrite: (command) => {
			const { name, rest, tail } = firstCommand(command);
			return `${name} --pph-unknown-option${rest}${tail}`;
		},
	},
	{
		name: "the name replaced by ./name",
		appliesTo: REWRITABLE,
		rewrite: (command) => `./${command}`,
	},
	{
		name: "a word split by backslash-newline into another command",
		appliesTo: REWRITABLE,
		// bash joins `ls\⏎x` into `lsx`; a reader that took the break for a blank would see `ls x`.
		rewrite: (command) => {
			const { name, rest, tail } = firstCommand(command);
			return `${name}\\\nx${rest}${tail}`;
		},
	},
	{
		name: "an option supplied by xargs",
		appliesTo: TAKES_OPTIONS,
		rewrite: (command) => {
			const { name, rest, tail } = firstCommand(command);
			return `echo --pph-option | xargs ${name}${rest}${tail}`;
		},
	},
];

describe("metamorphic: a rewritten read is not read", () => {
	for (const { name, appliesTo, rewrite } of REWRITES) {
		it(`${name} (${appliesTo.length} commands)`, () => {
			expect(appliesTo.length).toBeGreaterThan(80);
			const stillRead = appliesTo
				.map(rewrite)
				.filter((rewritten) => classifyBash(bash, rewritten).tier === "read");
			expect(stillRead).toEqual([]);
		});
	}

	it("inert commands stay read whatever their words, since no word of theirs acts", () => {
		for (const command of ["echo $OPTIONS", "echo --pph-unknown-option", "true $x", 'test -n "$x"']) {
			expect(classifyBash(bash, command).tier, command).toBe("read");
		}
	});
});

describe("why a part is not read", () => {
	it.each([
		[
			"sed --in-pl s/a/b/ f",
			"`--in-pl` abbreviates `--in-place`; only full option names are proven read-only",
		],
		["ls $x", "`$x` is expanded at run time and could become an option of ls"],
		["./ls", "`./ls` is a program at a path of its own, not the system's ls"],
		["grep -r --foo x", "`--foo` is not an option grep is known to read with"],
		["sort -o out in", "sort -o writes its output to a file"],
		["git -c core.pager=sh log", "git -c core.pager is not known to leave what git runs unchanged"],
		[
			"find . | xargs grep -l x",
			"xargs appends words to grep at run time, and any of them could be an option",
		],
		[
			"HOME=/tmp/x git log",
			"sets HOME, which is not among the variables proven harmless (locale, time zone, colours, terminal size)",
		],
	])("%s: %s", (command, reason) => {
		expect(notReadReasons(command)).toContain(reason);
	});
});

describe("a device is not read, though the command only reads it", () => {
	it.each([
		// The person's next keystrokes, meant for a dialog.
		"head -c 100 /dev/tty",
		"cat < /dev/tty",
		"read x < /dev/tty",
		"cat /dev/pts/0",
		"cat /dev/fd/../tty",
		// Opening starts the countdown to a reboot; opening rewinds the tape.
		"cat /dev/watchdog",
		"cat /dev/st0",
		// Taken from the system log.
		"cat /proc/kmsg",
		// Devices met while recursing are skipped, unless -D read says to open them.
		"grep -rD read x /dev",
		"grep -r --devices=read x /",
		// A loop variable is one of its header's words, checked as paths there.
		'for f in /dev/pts/0; do cat -- "$f"; done',
	])("%s is privileged", (command) => {
		expect(classifyBash(bash, command).tier).toBe("privileged");
	});

	it.each([
		"cat /dev/null",
		"head -c 16 /dev/urandom",
		"cat /dev/stdin",
		"cat /dev/fd/0",
		"ls /dev",
		"cat /dev/shm/x",
	])("%s stays read", (command) => {
		expect(classifyBash(bash, command).tier).toBe("read");
	});
});

describe("a value glued to its option names the path it holds, not a file named like the option", () => {
	it.each([
		// Guarded: only a person may allow these writes (git would run what a written config names).
		"git log -1 --output=.git/config",
		"git diff --output=.git/hooks/pre-commit",
		// A device, found glued to a read option.
		"grep -f/dev/pts/0 f",
		"jq --from-file=/dev/pts/0",
		"grep --exclude-from=/dev/pts/0 -r x .",
	])("%s is privileged", (command) => {
		expect(classifyBash(bash, command).tier).toBe("privileged");
	});

	it("a glued ~ is a directory of that name, which bash does not expand there", () => {
		const touched = classifyBash(bash, "grep --file=~/x f").parts.flatMap((part) =>
			part.paths.map((touch) => touch.absolute),
		);
		expect(touched).toContain("/work/project/~/x");
	});
});

describe("a glob reaches the links in the directory it lists (a repository's notes.md -> /dev/tty)", () => {
	let repo: string;
	beforeAll(() => {
		repo = mkdtempSync(path.join(tmpdir(), "pph-glob-links-"));
		for (const dir of ["docs", "inbox", "plain"]) mkdirSync(path.join(repo, dir));
		writeFileSync(path.join(repo, "docs", "a.md"), "a\n");
		symlinkSync("/dev/tty", path.join(repo, "docs", "notes.md"));
		symlinkSync(`${HOME}/.pi/agent/pi-permission-hub/inbox`, path.join(repo, "inbox", "all"));
		writeFileSync(path.join(repo, "plain", "a.md"), "a\n");
	});
	afterAll(() => rmSync(repo, { recursive: true, force: true }));

	it.each(["cat -- docs/*.md", 'for f in docs/*; do cat -- "$f"; done', "wc -l docs/a*", "ls -- inbox/*"])(
		"%s is privileged",
		(command) => {
			expect(classifyBash(bash, command, { cwd: repo }).tier).toBe("privileged");
		},
	);

	it.each(["cat -- plain/*.md", "cat docs/a.md"])("%s stays read", (command) => {
		expect(classifyBash(bash, command, { cwd: repo }).tier).toBe("read");
	});

	it("a glob in a directory too large to list asks: its links are not known", () => {
		const many = path.join(repo, "many");
		mkdirSync(many);
		for (let i = 0; i <= 5000; i++) writeFileSync(path.join(many, `${i}.md`), "");
		expect(classifyBash(bash, "cat -- many/*.md", { cwd: repo }).tier).toBe("write");
	});
});

/**
 * What the programs do with a repository's links, run for real on a tree holding a link to a directory and one to
 * a file outside it (standing for the gate's inbox): the forms that reach the secret are not `read`, and the forms
 * kept `read` do not reach it. The classifier cannot see a link met during a traversal (adr/0003).
 */
describe("a recursion reaches what the links it follows point to", () => {
	let root: string;
	let repo: string;
	beforeAll(() => {
		root = mkdtempSync(path.join(tmpdir(), "pph-follow-"));
		repo = path.join(root, "repo");
		for (const dir of ["repo/a", "repo/b", "outside"]) mkdirSync(path.join(root, dir), { recursive: true });
		writeFileSync(path.join(root, "outside", "request.md"), "foo SECRET\n");
		for (const side of ["a", "b"]) {
			writeFileSync(path.join(repo, side, "plain.md"), `foo ${side}\n`);
			symlinkSync(path.join(root, "outside"), path.join(repo, side, "dir"));
		}
		symlinkSync(path.join(root, "outside", "request.md"), path.join(repo, "a", "notes.md"));
		writeFileSync(path.join(repo, "b", "notes.md"), "foo b\n");
	});
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	const output = (command: string): string =>
		execFileSync("bash", ["-c", `${command} 2>/dev/null || true`], { cwd: repo, encoding: "utf8" });

	it.each([
		["grep -R foo .", "SECRET"],
		["find -L . -name '*.md'", "dir/request.md"],
		["find . -name '*.md' -exec cat {} +", "SECRET"],
		["find . -exec grep foo {} +", "SECRET"],
		["diff -r a b", "SECRET"],
		["ls -RL", "request.md"],
		["du -aL", "request.md"],
	])("%s reaches the link's target and is not read", (command, reached) => {
		expect(output(command)).toContain(reached);
		expect(classifyBash(bash, command, { cwd: repo }).tier).not.toBe("read");
	});

	it.each([
		"grep -r foo .",
		"find . -type f -exec cat {} +",
		"find . -name '*.md' -type f -exec grep foo {} +",
		"diff -r --no-dereference a b",
		"ls -R",
		"du -a",
	])("%s does not reach it and stays read", (command) => {
		expect(output(command)).not.toMatch(/SECRET|request\.md/);
		expect(classifyBash(bash, command, { cwd: repo }).tier).toBe("read");
	});
});

describe("diff of two directories opens the files of the same name, through links", () => {
	let repo: string;
	beforeAll(() => {
		repo = mkdtempSync(path.join(tmpdir(), "pph-diff-links-"));
		for (const dir of ["a", "b", "c", "d"]) mkdirSync(path.join(repo, dir));
		symlinkSync("/dev/tty", path.join(repo, "a", "notes.md"));
		writeFileSync(path.join(repo, "b", "notes.md"), "b\n");
		symlinkSync(`${HOME}/.pi/agent/pi-permission-hub/inbox/r.json`, path.join(repo, "c", "r.json"));
		writeFileSync(path.join(repo, "d", "r.json"), "{}\n");
	});
	afterAll(() => rmSync(repo, { recursive: true, force: true }));

	it.each(["diff a b", "diff -u b a", "diff c d", "diff b/notes.md a", "diff -- a* b"])(
		"%s is not read",
		(command) => {
			expect(classifyBash(bash, command, { cwd: repo }).tier).not.toBe("read");
		},
	);

	it.each(["diff b d", "diff --no-dereference a b", "diff b/notes.md d/r.json"])(
		"%s stays read",
		(command) => {
			expect(classifyBash(bash, command, { cwd: repo }).tier).toBe("read");
		},
	);
});
