import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inboxLayout, requestFile } from "../../src/hub/protocol.ts";
import {
	makeRequest,
	PARENT_SESSION,
	spawnChild,
	startServer,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

function deadPid(): number {
	const done = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
		encoding: "utf8",
	});
	return Number(done.stdout);
}

describe("stale claims with two live servers on one inbox", () => {
	it("two server processes that start together take over each claim a dead server left exactly once", async () => {
		const agentDir = tempAgentDir();
		// An inbox a server made and left mid-decision: every request in it claimed by a process that is gone.
		const first = await startServer(agentDir);
		await first.server.close();
		const layout = inboxLayout(agentDir, PARENT_SESSION);
		const dead = deadPid();
		const ids: string[] = [];
		for (let i = 0; i < 300; i++) {
			const request = makeRequest();
			writeFileSync(requestFile(layout, request.id), JSON.stringify(request));
			writeFileSync(join(layout.claims, request.id), `${dead}:1`);
			ids.push(request.id);
		}
		const go = join(agentDir, "go");
		const servers = [0, 1].map(() =>
			spawnChild({
				mode: "serve",
				agentDir,
				sessionId: PARENT_SESSION,
				logFile: first.log.file,
				decide: "hold",
				go,
			}),
		);
		await Promise.all(servers.map((s) => s.next((l) => l.event === "ready")));
		writeFileSync(go, "");
		const deciding = () => servers.flatMap((s) => s.lines.filter((l) => l.event === "deciding"));
		await waitUntil(
			"every request taken over",
			() => new Set(deciding().map((l) => l.id)).size === ids.length,
			20_000,
		);
		// Both have listed the whole inbox by now; a second takeover would have started at once.
		await Promise.all(servers.map((s) => s.next((l) => l.event === "serving")));
		const byId = new Map<unknown, number>();
		for (const line of deciding()) byId.set(line.id, (byId.get(line.id) ?? 0) + 1);
		const twice = [...byId].filter(([, n]) => n > 1);
		console.log(
			`stale claims: ${servers.map((s) => s.lines.filter((l) => l.event === "deciding").length).join(" + ")} takeovers of ${ids.length}, ${twice.length} twice`,
		);
		expect(twice).toEqual([]);
	}, 60_000);
});
