import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { requestFile, responseFile } from "../../src/hub/protocol.ts";
import {
	abandonedInbox,
	deadPid,
	makeRequest,
	PARENT_SESSION,
	spawnChild,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

/**
 * The marker a server creates while it takes over the dead claim `deadMark` of request `id` (the name servers of
 * every version use for a claim's takeover): left behind by a server killed mid-takeover.
 */
function takeoverMarker(id: string, deadMark: string): string {
	return `${id}.takeover-${createHash("sha256").update(deadMark).digest("hex").slice(0, 16)}`;
}

describe("stale claims with two live servers on one inbox", () => {
	it("a server killed mid-takeover (its marker left behind) does not keep the dead claim from being taken over", async () => {
		const agentDir = tempAgentDir();
		const { layout, log } = await abandonedInbox(agentDir);
		// The request's asker (this process) still waits; the server that claimed it died, and so did the server
		// that began to take that claim over.
		const request = makeRequest();
		const deadClaim = `${deadPid()}:1`;
		writeFileSync(requestFile(layout, request.id), JSON.stringify(request));
		writeFileSync(join(layout.claims, request.id), deadClaim);
		writeFileSync(join(layout.claims, takeoverMarker(request.id, deadClaim)), `${deadPid()}:1`);
		const server = spawnChild({
			mode: "serve",
			agentDir,
			sessionId: PARENT_SESSION,
			logFile: log.file,
			decide: "allow",
		});
		await server.next((l) => l.event === "serving");
		await server.next((l) => l.event === "deciding" && l.id === request.id, 10_000);
		const response = responseFile(layout, request.id);
		await waitUntil("the response", () => readIfThere(response) !== null, 10_000);
		expect(JSON.parse(readIfThere(response) ?? "")).toMatchObject({
			requestId: request.id,
			decision: "allow",
		});
	}, 30_000);

	it.each([
		["a dead server left", false],
		["a dead server left, each with the marker of a server killed mid-takeover,", true],
	])(
		"two server processes that start together take over each claim %s exactly once",
		async (_, withMarkers) => {
			const agentDir = tempAgentDir();
			// An inbox a server made and left mid-decision: every request in it claimed by a process that is gone.
			const { layout, log } = await abandonedInbox(agentDir);
			const dead = deadPid();
			const deadMarker = deadPid();
			const ids: string[] = [];
			for (let i = 0; i < 300; i++) {
				const request = makeRequest();
				writeFileSync(requestFile(layout, request.id), JSON.stringify(request));
				writeFileSync(join(layout.claims, request.id), `${dead}:1`);
				if (withMarkers) {
					writeFileSync(join(layout.claims, takeoverMarker(request.id, `${dead}:1`)), `${deadMarker}:1`);
				}
				ids.push(request.id);
			}
			const go = join(agentDir, "go");
			const servers = [0, 1].map(() =>
				spawnChild({
					mode: "serve",
					agentDir,
					sessionId: PARENT_SESSION,
					logFile: log.file,
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
				`stale claims${withMarkers ? " behind dead markers" : ""}: ${servers.map((s) => s.lines.filter((l) => l.event === "deciding").length).join(" + ")} takeovers of ${ids.length}, ${twice.length} twice`,
			);
			expect(twice).toEqual([]);
		},
		60_000,
	);
});

function readIfThere(file: string): string | null {
	try {
		return readFileSync(file, "utf8");
	} catch {
		return null;
	}
}
