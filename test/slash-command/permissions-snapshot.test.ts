/** How `/permissions` says the session reaches a human (adr/0010, adr/0027), for each place a session can be in. */
import { describe, expect, it } from "vitest";
import type { ParentTarget } from "../../src/hub/resolve-parent.ts";
import { reachText } from "../../src/slash-command/permissions-snapshot.ts";

const parent: ParentTarget = {
	sessionId: "root-1",
	inbox: "/agent/pi-permission-hub/inbox/root-1",
	location: "other-process",
	pid: 4242,
	path: ["root"],
	via: "PI_PERMISSION_HUB_PARENT",
};
const child = { kind: "child", parent } as const;
const orphan = { kind: "orphan", why: "no live parent session" } as const;
const root = { kind: "root" } as const;
const FOUND = "through parent session root-1 (other-process, found via PI_PERMISSION_HUB_PARENT)";

describe("how the session reaches a human", () => {
	it("a subagent: through its parent, and its own UI when it may fall back to it", () => {
		expect(reachText(child, false, "parent-then-local")).toBe(FOUND);
		expect(reachText(child, true, "parent-only")).toBe(FOUND);
		expect(reachText(child, true, "parent-then-local")).toBe(
			`${FOUND}; this session's own UI when the parent cannot be asked`,
		);
	});

	it("a subagent whose parent was never found: its own UI if it may ask there, else nobody, with why", () => {
		expect(reachText(orphan, true, "parent-then-local")).toBe(
			"this session's own UI (no live parent session)",
		);
		expect(reachText(orphan, true, "parent-only")).toBe("nobody: no live parent session");
		expect(reachText(orphan, false, "parent-then-local")).toBe("nobody: no live parent session");
	});

	it("a root: its own UI, else nobody, and its asks are parked or refused", () => {
		expect(reachText(root, true, "parent-only")).toBe("this session's own UI");
		expect(reachText(root, false, "parent-only")).toBe(
			"nobody (no UI and no parent): asks are parked or refused",
		);
	});
});
