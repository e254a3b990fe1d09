/** A valid forward request (no test-runner imports: the child processes use it too). */
import { createHash } from "node:crypto";
import { type ForwardRequest, newRequestId, PROTOCOL } from "../../src/hub/protocol.ts";

export function hashOf(text: string): string {
	return createHash("sha256").update(text).digest("hex");
}

/** A request every schema check accepts; `overrides` replace fields (possibly with invalid ones). */
export function makeRequest(overrides: Partial<ForwardRequest> = {}): ForwardRequest {
	const now = Date.now();
	const id = overrides.id ?? newRequestId(now);
	return {
		protocol: PROTOCOL,
		id,
		actionHash: hashOf(id),
		tool: "bash",
		input: { command: "rm -rf build" },
		cwd: "/work/project",
		tier: "destructive",
		asking: [{ tier: "destructive", why: "rm deletes files", command: "rm -rf build" }],
		why: "rm deletes files",
		preview: "rm -rf build",
		chain: [{ agent: "worker", sessionId: "child-session" }],
		path: ["root", "worker"],
		requesterPid: process.pid,
		createdAt: new Date(now).toISOString(),
		expiresAt: new Date(now + 60_000).toISOString(),
		suggestions: [],
		grantable: false,
		unanswered: "wait",
		...overrides,
	};
}
