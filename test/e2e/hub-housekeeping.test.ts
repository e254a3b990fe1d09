/**
 * A root with a UI that opens its inbox also removes inboxes that sessions long over left in the agent dir, in
 * the background and without touching its own or a recent one; the hub log says how many went.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hubRoot, inboxLayout } from "../../src/hub/inbox-layout.ts";
import { never } from "../harness/dialog-policy.ts";
import { DAY_MS, plantInbox } from "../hub/planted-inbox.ts";
import { cleanUpHubWorlds, hubSandbox, startRoot } from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

async function waitFor(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe("inbox housekeeping in real pi", () => {
	it("a starting root removes an inbox left a month ago and keeps yesterday's and its own", async () => {
		const hub = await hubSandbox();
		const { agentDir } = hub.sb;
		const monthOld = plantInbox(agentDir, "0192cccc-0000-7000-8000-000000000001", 30 * DAY_MS);
		const yesterday = plantInbox(agentDir, "0192cccc-0000-7000-8000-000000000002", DAY_MS);

		const { sessionId } = await startRoot(hub, never);

		await waitFor("the month-old inbox to be removed", () => !existsSync(monthOld.root));
		expect(existsSync(yesterday.root)).toBe(true);
		expect(existsSync(inboxLayout(agentDir, sessionId).server)).toBe(true);
		const logFile = path.join(hubRoot(agentDir), "hub.log");
		await waitFor(
			"the hub log line",
			() => existsSync(logFile) && readFileSync(logFile, "utf8").includes("stale"),
		);
		const lines = readFileSync(logFile, "utf8")
			.trim()
			.split("\n")
			.map((line) => JSON.parse(line));
		expect(lines).toContainEqual(
			expect.objectContaining({ event: "server.stale_inboxes_removed", count: 1 }),
		);
	});
});
