import { describe, expect, it } from "vitest";
import type { SandboxSettings } from "../../src/policy/effective-policy.ts";
import { SANDBOX_INSTALL_HINT } from "../../src/sandbox/bubblewrap.ts";
import { describeSandbox } from "../../src/sandbox/sandbox-state.ts";

const ON: SandboxSettings = { enabled: true, required: false, human: false, networkAllow: [], exclude: [] };

describe("the sandbox line of /permissions and doctor", () => {
	it("an unavailable sandbox says why, what follows, and the probe's fix only when it has one", () => {
		const missing = {
			kind: "unavailable",
			why: "bubblewrap (bwrap) is not installed",
			fix: SANDBOX_INSTALL_HINT,
			asks: false,
		} as const;
		expect(describeSandbox(missing, ON)[0]).toBe(
			`ON BUT UNAVAILABLE: bubblewrap (bwrap) is not installed; commands run unsandboxed — ${SANDBOX_INSTALL_HINT}`,
		);
		expect(describeSandbox(missing, { ...ON, required: true })[0]).toBe(
			`ON BUT UNAVAILABLE: bubblewrap (bwrap) is not installed; sandbox.required, so every bash call that would run without a human asks one — ${SANDBOX_INSTALL_HINT}`,
		);
		expect(describeSandbox({ kind: "unavailable", why: "not running", fix: null, asks: false }, ON)[0]).toBe(
			"ON BUT UNAVAILABLE: not running; commands run unsandboxed",
		);
		// Where the gate rewrites commands into the sandbox, a call it cannot hold asks, required or not.
		expect(describeSandbox({ ...missing, asks: true }, ON)[0]).toBe(
			`ON BUT UNAVAILABLE: bubblewrap (bwrap) is not installed; every bash call that would run without a human asks one — ${SANDBOX_INSTALL_HINT}`,
		);
	});

	it("a sandbox held by rewriting each command says so, and why", () => {
		const lines = describeSandbox(
			{ kind: "on", bubblewrap: "/usr/bin/bwrap", rewritten: "pi-subagents runs in this session" },
			ON,
		);
		expect(lines.slice(0, 2)).toEqual([
			"on (/usr/bin/bwrap): bash commands allowed without a human run in the sandbox of their tier",
			"each allowed command is rewritten into the sandbox: pi-subagents runs in this session",
		]);
	});
});
