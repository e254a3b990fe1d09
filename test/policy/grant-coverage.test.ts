import { describe, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import { findCoveringGrant } from "../../src/policy/decide.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";
import {
	action,
	bash,
	CWD,
	commandPart,
	grant,
	HOME,
	HUMAN,
	pathPart,
	policyFromConfig,
	touch,
} from "./fixtures.ts";

/** Whether the grant alone lets the action through, asked the way the gate asks (no config: no ask rule). */
function covers(granted: SessionGrant, covered: ClassifiedAction): boolean {
	return findCoveringGrant(covered, [granted], policyFromConfig({}), HUMAN) !== null;
}

describe("session grants", () => {
	it("a command grant covers an action only when it covers every part", () => {
		const compiled = grant("command", "git *");
		expect(covers(compiled, bash(["git status", "read"], ["git log", "read"]))).toBe(true);
		expect(covers(compiled, bash(["git status", "read"], ["ls", "read"]))).toBe(false);
	});

	it("path grants use the rule syntax: ~ expands, relative patterns are under the cwd", () => {
		const home = grant("read", "~/notes/**");
		expect(covers(home, action("read", [pathPart("read", touch("read", `${HOME}/notes/a/b.md`))]))).toBe(
			true,
		);
		const relative = grant("path", "src/**");
		expect(
			covers(
				relative,
				action("edit", [
					pathPart("write", touch("write", `${CWD}/src/x.ts`), touch("read", `${CWD}/src/y.ts`)),
				]),
			),
		).toBe(true);
		expect(covers(relative, action("edit", [pathPart("write", touch("write", `/other/src/x.ts`))]))).toBe(
			false,
		);
	});

	it("a grant on a surface that does not fit the part covers nothing", () => {
		const tool = grant("tool", "bash");
		expect(covers(tool, action("bash", [commandPart("rm -rf /", "destructive")]))).toBe(true);
		expect(covers(tool, action("read", [pathPart("read", touch("read", `${CWD}/a`))]))).toBe(false);
		const write = grant("write", "**");
		expect(covers(write, action("read", [pathPart("read", touch("read", `${CWD}/a`))]))).toBe(false);
		expect(covers(write, action("todo", []))).toBe(false);
	});

	it("never covers a part riskier than the one it was granted for, or one leaving the cwd", () => {
		const limited = grant("command", "touch *", "g-touch", { tier: "write", outsideCwd: false });
		const inside = action("bash", [
			commandPart("touch a.txt", "write", { paths: [touch("write", `${CWD}/a.txt`)] }),
		]);
		expect(covers(limited, inside)).toBe(true);
		const system = action("bash", [
			commandPart("touch /etc/passwd", "privileged", { paths: [touch("write", "/etc/passwd")] }),
		]);
		expect(covers(limited, system)).toBe(false);
		const home = action("bash", [
			commandPart(`touch ${HOME}/.bashrc`, "write", { paths: [touch("write", `${HOME}/.bashrc`)] }),
		]);
		expect(covers(limited, home)).toBe(false);
		const outsideAllowed = grant("command", "touch *", "g-out", { tier: "write", outsideCwd: true });
		expect(covers(outsideAllowed, home)).toBe(true);
		expect(covers(outsideAllowed, system)).toBe(false);
	});
});
