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
import type { GateOutcome } from "../../src/gate/gate-outcome.ts";
import type { BashKit } from "../../src/gate/sandboxed-bash-tool.ts";
import { type BashCall, duplicateIdReason, Sandboxing } from "../../src/gate/sandboxing.ts";
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
};
const BY_HUMAN: GateOutcome = {
	...BY_LINK,
	source: { kind: "user", via: "dialog", verdict: "allow", scope: "once" },
};

/** A call as the gate's tool_call handler sees it: its own input object. */
function callOf(toolCallId: string, command = "ls", cwd = "/"): BashCall {
	return { toolCallId, input: { command }, cwd };
}

/** What `allowed` recorded for the audit (a block fails the test). */
async function recorded(
	sandboxing: Sandboxing,
	call: BashCall | string,
	outcome: GateOutcome,
	settings: SandboxSettings,
): Promise<string | undefined> {
	const result = await sandboxing.allowed(typeof call === "string" ? callOf(call) : call, outcome, settings);
	if ("block" in result) throw new Error(`blocked: ${result.block}`);
	return result.record;
}

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
		expect(await recorded(sandboxing, "call-1", BY_LINK, off)).toBeUndefined();
		expect(await sandboxing.missing(off, {})).toBeNull();
		expect(warnings).toEqual([]);
	});

	it("on, but turned on after this session started: pi's own bash runs unsandboxed, said once", async () => {
		const { sandboxing, warnings } = session();
		expect(sandboxing.state(ON)).toEqual({
			kind: "unavailable",
			why: "it was turned on after this session started; restart pi",
			fix: null,
			asks: false,
		});
		expect(await recorded(sandboxing, "call-1", BY_LINK, ON)).toBe("unavailable");
		expect(await sandboxing.missing({ ...ON, required: true }, { command: "ls" })).toBe(
			"the sandbox is required, but no sandbox can run here: it was turned on after this session started; restart pi",
		);
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
			asks: false,
		});
		expect(await recorded(sandboxing, "call-1", BY_LINK, ON)).toBe("unavailable");
		expect(await recorded(sandboxing, "call-2", BY_LINK, ON)).toBe("unavailable");
		// A human's approval runs as approved, sandbox or not.
		expect(await recorded(sandboxing, "call-3", BY_HUMAN, ON)).toBe("none");
		expect(await sandboxing.missing(ON, { command: "ls" })).toBeNull();
		expect(await sandboxing.missing({ ...ON, required: true }, { command: "ls" })).toBe(
			"the sandbox is required, but no sandbox can run here: bubblewrap (bwrap) is not installed",
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
		expect(await recorded(sandboxing, "call-1", BY_LINK, ON)).toBe("network");
		expect(await recorded(sandboxing, "call-2", BY_HUMAN, ON)).toBe("none");
		expect(await sandboxing.userCommand(BY_HUMAN, ON, "/")).toEqual({ record: "none" });
		const human = await sandboxing.userCommand(BY_HUMAN, { ...ON, human: true }, "/");
		expect(human.record).toBe("network");
		expect(human.operations).toBeDefined();
		expect(warnings).toEqual([]);
		await sandboxing.close();
	});

	it("another extension's bash tool runs the calls: each allowed command is rewritten into the sandbox; a call with no shell command asks", async () => {
		const { sandboxing, warnings } = session(probeBubblewrap, "/ext/other-bash.ts");
		sandboxing.start();
		await sandboxing.ready();
		const why = "another extension's bash tool runs its commands (/ext/other-bash.ts)";
		expect(sandboxing.state(ON)).toEqual({ kind: "on", bubblewrap: "/usr/bin/bwrap", rewritten: why });
		const call = callOf("call-1", "git status --short");
		// Unsealed (the gate's handler seals before deciding), it cannot be rewritten: refused, never run as is.
		expect(await sandboxing.allowed(call, BY_LINK, ON)).toMatchObject({
			block: expect.stringContaining(why),
		});
		sandboxing.seal(call.input);
		expect(await recorded(sandboxing, call, BY_LINK, ON)).toBe("network");
		expect(call.input.command).toMatch(
			/^exec '\/usr\/bin\/bwrap' .* -- \/bin\/bash -c '.*git status --short'/s,
		);
		// A human's approval runs as approved: the command stays as the model wrote it.
		// Sealed, frozen as the gate decides it: only the gate changed it; an assignment throws.
		Object.freeze(call.input);
		expect(() => {
			call.input.command = "touch elsewhere";
		}).toThrow(TypeError);
		expect(call.input.command).toContain("git status --short");
		const human = callOf("call-2", "git push");
		expect(await recorded(sandboxing, human, BY_HUMAN, ON)).toBe("none");
		expect(human.input.command).toBe("git push");
		expect(await sandboxing.missing(ON, { command: "ls" })).toBeNull();
		expect(await sandboxing.missing(ON, { script: ["ls"] })).toBe(
			`the sandbox cannot hold this call: ${why}, and its input has no shell command to put in the sandbox`,
		);
		expect(warnings).toEqual([]);
	});

	it("commands rewritten from the start (pi-subagents) but no sandbox can run: every silent call asks", async () => {
		const { sandboxing } = session(() => probeAt(null));
		sandboxing.startRewriting("pi-subagents runs in this session");
		await sandboxing.ready();
		expect(sandboxing.state(ON)).toEqual({
			kind: "unavailable",
			why: "bubblewrap (bwrap) is not installed",
			fix: SANDBOX_INSTALL_HINT,
			asks: true,
		});
		expect(await sandboxing.missing(ON, { command: "ls" })).toBe(
			"the sandbox cannot hold this call (pi-subagents runs in this session): bubblewrap (bwrap) is not installed",
		);
	});

	it("two calls with one id: the second is refused while the first waits, and a plan runs only for its own input", async () => {
		const { sandboxing } = session(probeBubblewrap);
		sandboxing.start();
		await sandboxing.ready();
		const project = mkdtempSync(join(tmpdir(), "pph-sandboxing-"));
		try {
			const first = callOf("same", "echo first", project);
			expect(await recorded(sandboxing, first, BY_HUMAN, ON)).toBe("none");
			expect(sandboxing.pending("same")).toBe(true);
			expect(await sandboxing.allowed(callOf("same", "touch elsewhere", project), BY_LINK, ON)).toEqual({
				block: duplicateIdReason("same"),
			});
			// Another input object under the id — even with the same command — does not get the plan.
			await expect(
				sandboxing.run("same", { command: "echo first" }, undefined, undefined, contextIn(project)),
			).rejects.toThrow(duplicateIdReason("same"));
			const result = await sandboxing.run(
				"same",
				first.input as { command: string },
				undefined,
				undefined,
				contextIn(project),
			);
			expect(result.content).toEqual([{ type: "text", text: "first\n" }]);
			expect(sandboxing.pending("same")).toBe(false);
			// A plan whose call never ran (blocked after the gate) is gone when the model's message is done.
			await recorded(sandboxing, callOf("numbered-0", "ls", project), BY_LINK, ON);
			expect(sandboxing.pending("numbered-0")).toBe(true);
			sandboxing.turnEnded();
			expect(sandboxing.pending("numbered-0")).toBe(false);
		} finally {
			rmSync(project, { recursive: true, force: true });
			await sandboxing.close();
		}
	});

	it("a call planned for the sandbox that ran without passing through it: the gate rewrites commands from then on, loudly", async () => {
		const { sandboxing, warnings } = session(probeBubblewrap);
		sandboxing.start();
		await sandboxing.ready();
		const project = mkdtempSync(join(tmpdir(), "pph-sandboxing-"));
		try {
			// Ours ran it: its plan was used, nothing to say.
			const here = callOf("ran-here", 'echo inside "$PI_SESSION_ID"', project);
			expect(await recorded(sandboxing, here, BY_LINK, ON)).toBe("network");
			// pi hands its bash tool the session's context, and the tool tells each command which session runs it.
			const ctx = contextIn(project);
			const result = await sandboxing.run(
				"ran-here",
				here.input as { command: string },
				undefined,
				undefined,
				ctx,
			);
			expect(result.content).toEqual([
				{ type: "text", text: `inside ${ctx.sessionManager.getSessionId()}\n` },
			]);
			sandboxing.finished("ran-here", here.input);
			expect(sandboxing.state(ON)).toEqual({ kind: "on", bubblewrap: "/usr/bin/bwrap" });
			expect(warnings).toEqual([]);

			// Something else ran it: its plan is still here when pi reports the result.
			const elsewhere = callOf("ran-elsewhere", "ls", project);
			expect(await recorded(sandboxing, elsewhere, BY_LINK, ON)).toBe("network");
			sandboxing.finished("ran-elsewhere", elsewhere.input);
			const why = "a bash tool other than this gate's ran a command the gate allowed in a sandbox";
			expect(sandboxing.state(ON)).toEqual({ kind: "on", bubblewrap: "/usr/bin/bwrap", rewritten: why });
			expect(warnings).toHaveLength(1);
			expect(warnings[0]).toContain(why);
			// The next command is rewritten; if our tool does run it after all, it is not wrapped twice.
			const next = callOf("next", "echo once", project);
			sandboxing.seal(next.input);
			expect(await recorded(sandboxing, next, BY_LINK, ON)).toBe("network");
			expect(next.input.command).toContain("/usr/bin/bwrap");
			const again = await sandboxing.run(
				"next",
				next.input as { command: string },
				undefined,
				undefined,
				contextIn(project),
			);
			expect(again.content).toEqual([{ type: "text", text: "once\n" }]);
		} finally {
			rmSync(project, { recursive: true, force: true });
			await sandboxing.close();
		}
	});
});

function contextIn(project: string): ExtensionToolContext {
	return {
		cwd: project,
		sessionManager: SessionManager.inMemory(project),
		isProjectTrusted: () => false,
	} as Partial<ExtensionToolContext> as ExtensionToolContext;
}
