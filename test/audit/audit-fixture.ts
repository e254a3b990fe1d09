/** Shared by the audit tests: a valid entry, and real temp directories removed after each test. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { AUDIT_SCHEMA_VERSION, type AuditEntry } from "../../src/audit/audit-entry.ts";

export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
	return {
		v: AUDIT_SCHEMA_VERSION,
		time: "2025-06-01T12:00:00.000Z",
		sessionId: "0192f3a4-5b6c-7d8e-9f00-112233445566",
		event: "tool_call",
		origin: { kind: "subagent", name: "worker", depth: 2, path: ["root", "planner", "worker"] },
		tool: "bash",
		tier: "destructive",
		actionHash: "a".repeat(64),
		preview: "rm -rf build",
		mode: "ask",
		outcome: "deny",
		source: {
			kind: "forwarded",
			responderSessionId: "root-session",
			decision: { kind: "user", via: "dialog", verdict: "deny", scope: "once", reason: "keep build" },
		},
		reason: "The user denied this bash call (rm -rf build).",
		latencyMs: 1234.5,
		configFiles: ["/home/dev/.pi/agent/pi-permission-hub/config.json"],
		chain: [{ link: "corp/bot", result: "defer", ms: 0.25 }],
		...overrides,
	};
}

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

export function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pph-audit-"));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
	return dir;
}
