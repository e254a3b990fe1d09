import { describe, expect, it } from "vitest";
import { spawnChild, tempAgentDir } from "./hub-fixture.ts";

describe("an idle server", () => {
	// Its CPU time over an idle window is bench figure 7 (npm run bench -- 7).
	it("fires no timers over 3 s (in a process of its own)", async () => {
		const agentDir = tempAgentDir();
		const child = spawnChild({ mode: "idle", agentDir, idleMs: 3000 });
		const report = await child.next((l) => l.event === "idle", 20_000);
		console.log(
			`idle server: resources before open ${JSON.stringify(report.before)}, after ${JSON.stringify(report.after)}`,
		);
		// The only timer is the test's own 3 s sleep; the server added none.
		expect(report.timersAfterOpen).toBe(0);
		expect(report.timersWhileIdle).toBe(1);
		expect(report.timersAtEnd).toBe(0);
		expect(report.decided).toBe(0);
	});
});
