import { describe, expect, it } from "vitest";
import { spawnChild, tempAgentDir } from "./hub-fixture.ts";

describe("an idle server", () => {
	it("fires no timers and uses next to no CPU over 3 s (measured in a process of its own)", async () => {
		const agentDir = tempAgentDir();
		const child = spawnChild({ mode: "idle", agentDir, idleMs: 3000 });
		const report = await child.next((l) => l.event === "idle", 20_000);
		const cpu = report.cpu as { user: number; system: number };
		const cpuMs = (cpu.user + cpu.system) / 1000;
		console.log(
			`idle server: ${cpuMs.toFixed(1)} ms CPU over ${Number(report.wallMs).toFixed(0)} ms ` +
				`(user ${(cpu.user / 1000).toFixed(1)}, system ${(cpu.system / 1000).toFixed(1)}); ` +
				`resources before open ${JSON.stringify(report.before)}, after ${JSON.stringify(report.after)}`,
		);
		// The only timer is the test's own 3 s sleep; the server added none.
		expect(report.timersAfterOpen).toBe(0);
		expect(report.timersWhileIdle).toBe(1);
		expect(report.timersAtEnd).toBe(0);
		expect(report.decided).toBe(0);
		expect(cpuMs).toBeLessThan(50);
	});
});
