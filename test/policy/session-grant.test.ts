import { describe, expect, it } from "vitest";
import { compileGrant, grantCovers } from "../../src/policy/session-grant.ts";
import { action, bash, CWD, commandPart, grant, HOME, pathPart, touch } from "./fixtures.ts";

const context = { cwd: CWD, homeDir: HOME };

describe("session grants", () => {
	it("a command grant covers an action only when it covers every part", () => {
		const compiled = compileGrant(grant("command", "git *"), context);
		expect(grantCovers(compiled, bash(["git status", "read"], ["git log", "read"]))).toBe(true);
		expect(grantCovers(compiled, bash(["git status", "read"], ["ls", "read"]))).toBe(false);
	});

	it("path grants use the rule syntax: ~ expands, relative patterns are under the cwd", () => {
		const home = compileGrant(grant("read", "~/notes/**"), context);
		expect(grantCovers(home, action("read", [pathPart("read", touch("read", `${HOME}/notes/a/b.md`))]))).toBe(
			true,
		);
		const relative = compileGrant(grant("path", "src/**"), context);
		expect(
			grantCovers(
				relative,
				action("edit", [
					pathPart("write", touch("write", `${CWD}/src/x.ts`), touch("read", `${CWD}/src/y.ts`)),
				]),
			),
		).toBe(true);
		expect(
			grantCovers(relative, action("edit", [pathPart("write", touch("write", `/other/src/x.ts`))])),
		).toBe(false);
	});

	it("a grant on a surface that does not fit the part covers nothing", () => {
		const tool = compileGrant(grant("tool", "bash"), context);
		expect(grantCovers(tool, action("bash", [commandPart("rm -rf /", "destructive")]))).toBe(true);
		expect(grantCovers(tool, action("read", [pathPart("read", touch("read", `${CWD}/a`))]))).toBe(false);
		const write = compileGrant(grant("write", "**"), context);
		expect(grantCovers(write, action("read", [pathPart("read", touch("read", `${CWD}/a`))]))).toBe(false);
		expect(grantCovers(write, action("todo", []))).toBe(false);
	});
});
