import { describe, expect, it } from "vitest";
import { compileGrant, grantCovers } from "../../src/policy/grant-coverage.ts";
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

	it("never covers a part riskier than the one it was granted for, or one leaving the cwd", () => {
		const limited = compileGrant(
			grant("command", "touch *", "g-touch", { tier: "write", outsideCwd: false }),
			context,
		);
		const inside = action("bash", [
			commandPart("touch a.txt", "write", { paths: [touch("write", `${CWD}/a.txt`)] }),
		]);
		expect(grantCovers(limited, inside)).toBe(true);
		const system = action("bash", [
			commandPart("touch /etc/passwd", "privileged", { paths: [touch("write", "/etc/passwd")] }),
		]);
		expect(grantCovers(limited, system)).toBe(false);
		const home = action("bash", [
			commandPart(`touch ${HOME}/.bashrc`, "write", { paths: [touch("write", `${HOME}/.bashrc`)] }),
		]);
		expect(grantCovers(limited, home)).toBe(false);
		const outsideAllowed = compileGrant(
			grant("command", "touch *", "g-out", { tier: "write", outsideCwd: true }),
			context,
		);
		expect(grantCovers(outsideAllowed, home)).toBe(true);
		expect(grantCovers(outsideAllowed, system)).toBe(false);
	});
});
