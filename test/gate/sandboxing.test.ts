/**
 * One session's sandboxed bash (adr/0017), with pi's own bash tool from the installed package and this machine's
 * real bubblewrap — or a probe of a bubblewrap that is not there, for a machine that has none.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionToolContext } from "@earendil-works/pi-coding-agent";
import {
	createBashToolDefinition,
	createLocalBashOperations,
	SessionManager,
	SettingsManager,
} from "@earendil-works/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { GateOutcome } from "../../src/gate/pipeline.ts";
import type { BashKit } from "../../src/gate/sandboxed-bash-tool.ts";
import { Sandboxing } from "../../src/gate/sandboxing.ts";
import type { SandboxSettings } from "../../src/policy/effective-policy.ts";
import { probeAt, probeBubblewrap, SANDBOX_INSTALL_HINT } from "../../src/sandbox/bubblewrap.ts";

const KIT: BashKit = { createBashToolDefinition, createLocalBashOperations, SettingsManager };
const ON: SandboxSettings = { enabled: true, required: false, human: false, networkAllow: [], exclude: [] };

/** An allow without a human, of a call that could not be classified: the strictest tier's profile. */
const BY_LINK: GateOutcome = {
	outcome: "allow",
	mode: "ask",
	source: { kind: "authorizer", link: "ci", verdict: "allow" },
	action: null,
	reason: "allowed by authorizer ci",
	chain: [],
	step: "links",
};
const BY_HUMAN: GateOutcome = {
	...BY_LINK,
	source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
	step: "terminal",
};

function session(probe?: () => ReturnType<typeof probeAt>, foreignBash: string | null = null) {
	const warnings: string[] = [];
	const sandboxing = new Sandboxing({
		agentDir: "/nonexistent/agent",
		kit: KIT,
		warn: (message) => warnings.push(message),
		foreignBash: () => foreignBash,
		...(probe ? { probe } : {}),
	});
	return { sandboxing, warnings };
}

describe("Sandboxing", () => {
	it("off: says nothing and records nothing", async () => {
		const { sandboxing, warnings } = session();
		const off = { ...ON, enabled: false };
		expect(sandboxing.state(off)).toEqual({ kind: "off" });
		expect(await sandboxing.allowed("call-1", BY_LINK, off)).toBeUndefined();
		expect(await sandboxing.missing(off)).toBeNull();
		expect(warnings).toEqual([]);
	});

	it("on, but this session keeps pi's own bash (turned on after it started, or pi-subagents here): unavailable, said once", async () => {
		const { sandboxing, warnings } = session();
		expect(sandboxing.state(ON)).toEqual({
			kind: "unavailable",
			why: "it was turned on after this session started; restart pi",
			fix: null,
		});
		expect(await sandboxing.allowed("call-1", BY_LINK, ON)).toBe("unavailable");
		expect(await sandboxing.missing({ ...ON, required: true })).toBe(
			"no sandbox can run here: it was turned on after this session started; restart pi",
		);
		sandboxing.cannotRun("pi-subagents runs in this session");
		expect(sandboxing.state(ON)).toEqual({
			kind: "unavailable",
			why: "pi-subagents runs in this session",
			fix: null,
		});
		expect(warnings).toHaveLength(1);
	});

	it("no bubblewrap: every silent call is recorded unavailable, and it is said once with the install command", async () => {
		const { sandboxing, warnings } = session(() => probeAt(null));
		sandboxing.start();
		expect(sandboxing.state(ON)).toEqual({ kind: "probing" });
		await sandboxing.ready();
		expect(sandboxing.state(ON)).toEqual({
			kind: "unavailable",
			why: "bubblewrap (bwrap) is not installed",
			fix: SANDBOX_INSTALL_HINT,
		});
		expect(await sandboxing.allowed("call-1", BY_LINK, ON)).toBe("unavailable");
		expect(await sandboxing.allowed("call-2", BY_LINK, ON)).toBe("unavailable");
		// A human's approval runs as approved, sandbox or not.
		expect(await sandboxing.allowed("call-3", BY_HUMAN, ON)).toBe("none");
		expect(await sandboxing.missing(ON)).toBeNull();
		expect(await sandboxing.missing({ ...ON, required: true })).toBe(
			"no sandbox can run here: bubblewrap (bwrap) is not installed",
		);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain("apt install bubblewrap");
		expect(warnings[0]).toContain('"required": true');
	});

	it("with bubblewrap: the profile of the tier, none for a human, and a human's `!` command wrapped only under sandbox.human", async () => {
		const { sandboxing, warnings } = session(probeBubblewrap);
		sandboxing.start();
		await sandboxing.ready();
		expect(sandboxing.state(ON)).toEqual({ kind: "on", bubblewrap: "/usr/bin/bwrap" });
		expect(await sandboxing.allowed("call-1", BY_LINK, ON)).toBe("network");
		expect(await sandboxing.allowed("call-2", BY_HUMAN, ON)).toBe("none");
		expect(await sandboxing.userCommand(BY_HUMAN, ON, "/")).toEqual({ record: "none" });
		const human = await sandboxing.userCommand(BY_HUMAN, { ...ON, human: true }, "/");
		expect(human.record).toBe("network");
		expect(human.operations).toBeDefined();
		expect(warnings).toEqual([]);
		await sandboxing.close();
	});

	it("another extension's bash tool runs the calls: no sandbox, said once, and required asks", async () => {
		const { sandboxing, warnings } = session(probeBubblewrap, "/ext/other-bash.ts");
		sandboxing.start();
		await sandboxing.ready();
		const why = "another extension's bash tool runs its commands (/ext/other-bash.ts)";
		expect(sandboxing.state(ON)).toEqual({ kind: "unavailable", why, fix: null });
		expect(await sandboxing.allowed("call-1", BY_LINK, ON)).toBe("unavailable");
		expect(await sandboxing.allowed("call-2", BY_LINK, ON)).toBe("unavailable");
		expect(await sandboxing.missing({ ...ON, required: true })).toBe(`no sandbox can run here: ${why}`);
		expect(warnings).toEqual([
			`pi-permission-hub: the sandbox is on, but this session's bash runs unsandboxed: ${why} (set "sandbox": { "required": true } to be asked instead).`,
		]);
	});

	it("a call planned for the sandbox that ran without passing through it turns the sandbox off for the session, loudly", async () => {
		const { sandboxing, warnings } = session(probeBubblewrap);
		sandboxing.start();
		await sandboxing.ready();
		const project = mkdtempSync(join(tmpdir(), "pph-sandboxing-"));
		try {
			// Ours ran it: its plan was used, nothing to say.
			expect(await sandboxing.allowed("ran-here", BY_LINK, ON)).toBe("network");
			// pi hands its bash tool the session's context, and the tool tells each command which session runs it.
			const sessionManager = SessionManager.inMemory(project);
			const ctx = {
				cwd: project,
				sessionManager,
				isProjectTrusted: () => false,
			} as Partial<ExtensionToolContext> as ExtensionToolContext;
			const result = await sandboxing.run(
				"ran-here",
				{ command: 'echo inside "$PI_SESSION_ID"' },
				undefined,
				undefined,
				ctx,
			);
			expect(result.content).toEqual([{ type: "text", text: `inside ${sessionManager.getSessionId()}\n` }]);
			sandboxing.finished("ran-here");
			expect(sandboxing.state(ON).kind).toBe("on");
			expect(warnings).toEqual([]);

			// Something else ran it: its plan is still here when pi reports the result.
			expect(await sandboxing.allowed("ran-elsewhere", BY_LINK, ON)).toBe("network");
			sandboxing.finished("ran-elsewhere");
			const why = "a bash tool other than this gate's ran a command the gate allowed in a sandbox";
			expect(sandboxing.state(ON)).toEqual({ kind: "unavailable", why, fix: null });
			expect(await sandboxing.allowed("next", BY_LINK, ON)).toBe("unavailable");
			expect(warnings).toHaveLength(1);
			expect(warnings[0]).toContain(why);
		} finally {
			rmSync(project, { recursive: true, force: true });
			await sandboxing.close();
		}
	});
});
