import { describe, expect, it } from "vitest";
import { compilePathPattern, pathFormMatches, relativeInside } from "../../src/policy/path-pattern.ts";
import { compileWildcard } from "../../src/vocabulary/wildcard-pattern.ts";
import { CWD, HOME } from "./fixtures.ts";

describe("wildcard patterns (tool, command)", () => {
	const matches = (pattern: string, text: string): boolean => compileWildcard(pattern).test(text);

	it("a trailing ` *` is optional, but the word must end", () => {
		expect(matches("git push *", "git push")).toBe(true);
		expect(matches("git push *", "git push origin main")).toBe(true);
		expect(matches("git push *", "git pushx")).toBe(false);
		expect(matches("git push *", "git pus")).toBe(false);
	});

	it("`*` spans spaces, slashes and newlines; the rest is literal and case-sensitive", () => {
		expect(matches("rm * /tmp/*", "rm -rf /tmp/a/b")).toBe(true);
		expect(matches("echo *", 'echo "a\nb"')).toBe(true);
		expect(matches("ls", "LS")).toBe(false);
		expect(matches("a.b", "axb")).toBe(false);
		expect(matches("cat (x)", "cat (x)")).toBe(true);
	});

	it("whole-string match", () => {
		expect(matches("git status", "git status --short")).toBe(false);
		expect(matches("status", "git status")).toBe(false);
		expect(matches("*status", "git status")).toBe(true);
		expect(matches("*", "")).toBe(true);
	});

	it("segments do not overlap", () => {
		expect(matches("a*a", "a")).toBe(false);
		expect(matches("a*a", "aa")).toBe(true);
		expect(matches("*ab*ab*", "xabyab")).toBe(true);
		expect(matches("*ab*ab*", "xaby")).toBe(false);
	});

	it("reports the literal first word for indexing, or null when it is open", () => {
		expect(compileWildcard("git push *").firstWord).toBe("git");
		expect(compileWildcard("ls").firstWord).toBe("ls");
		expect(compileWildcard("rm*").firstWord).toBeNull();
		expect(compileWildcard("* --force").firstWord).toBeNull();
	});

	// How long it takes is bench figure 9 (npm run bench -- 9).
	it("answers on hostile input", () => {
		const long = `${"a".repeat(200_000)}b`;
		expect(matches("*a*a*a*a*a*a*a*a*c", long)).toBe(false);
	});
});

describe("path patterns", () => {
	const compile = (pattern: string) => compilePathPattern(pattern, HOME);

	it("expands ~ and keeps dotfiles", () => {
		const ssh = compile("~/.ssh/**");
		expect(ssh.anchor).toBe("absolute");
		expect(pathFormMatches(ssh, `${HOME}/.ssh/id_rsa`, CWD, "inside")).toBe(true);
		expect(pathFormMatches(compile("~"), HOME, CWD, "inside")).toBe(true);
	});

	it("relative patterns match the path relative to the cwd, only inside it", () => {
		const env = compile(".env");
		expect(pathFormMatches(env, `${CWD}/.env`, CWD, "outside")).toBe(true);
		expect(pathFormMatches(env, `${CWD}/sub/.env`, CWD, "outside")).toBe(false);
		expect(pathFormMatches(compile("./src/**"), `${CWD}/src/a/b.ts`, CWD, "inside")).toBe(true);
		expect(pathFormMatches(compile("src/**"), "/elsewhere/src/a.ts", CWD, "outside")).toBe(false);
	});

	it("relative `**` patterns reach outside the cwd only when asked to", () => {
		const anyEnv = compile("**/.env");
		expect(anyEnv.anywhere).toBe(true);
		expect(pathFormMatches(anyEnv, `${CWD}/a/.env`, CWD, "inside")).toBe(true);
		expect(pathFormMatches(anyEnv, "/srv/app/.env", CWD, "outside")).toBe(true);
		expect(pathFormMatches(anyEnv, "/srv/app/.env", CWD, "inside")).toBe(false);
	});

	it("negation is not a feature: `!` is literal", () => {
		expect(pathFormMatches(compile("!secret"), `${CWD}/other`, CWD, "inside")).toBe(false);
	});

	it("keys on literal leading segments, at most three", () => {
		expect(compile("/home/dev/project/src/**").keySegments).toEqual(["home", "dev", "project"]);
		expect(compile("src/*.ts").keySegments).toEqual(["src"]);
		expect(compile("**/.env").keySegments).toEqual([]);
		expect(compile("/a/{b,c}/x").keySegments).toEqual(["a"]);
	});

	it("escapes glob characters in the home directory", () => {
		const matcher = compilePathPattern("~/notes/*", "/home/we(ird)");
		expect(pathFormMatches(matcher, "/home/we(ird)/notes/a.md", CWD, "inside")).toBe(true);
		expect(pathFormMatches(matcher, "/home/weird/notes/a.md", CWD, "inside")).toBe(false);
	});

	it("relativeInside", () => {
		expect(relativeInside("/a/b", "/a/b")).toBe(".");
		expect(relativeInside("/a/b", "/a/b/c")).toBe("c");
		expect(relativeInside("/a/b", "/a/bc")).toBeNull();
		expect(relativeInside("/", "/x/y")).toBe("x/y");
	});
});
