/**
 * A root with a UI that opens its inbox also removes inboxes that sessions long over left in the agent dir, in
 * the background and without touching its own or a recent one; the hub log says how many went.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { inboxLayout } from "../../src/hub/protocol.ts";
import { never } from "../harness/dialog-policy.ts";
import { DAY_MS, plantInbox } from "../hub/planted-inbox.ts";
import { cleanUpHubWorlds, hubLog, hubSandbox, startRoot } from "./hub-support.ts";

afterEach(cleanUpHubWorlds);

describe("inbox housekeeping in real pi", () => {
	it("a starting root removes an inbox left a month ago and keeps yesterday's and its own", async () => {
		const hub = await hubSandbox();
		const { agentDir } = hub.sb;
		const monthOld = plantInbox(agentDir, "0192cccc-0000-7000-8000-000000000001", 30 * DAY_MS);
		const yesterday = plantInbox(agentDir, "0192cccc-0000-7000-8000-000000000002", DAY_MS);

		const { sessionId } = await startRoot(hub, never);

		await expect.poll(() => existsSync(monthOld.root), { timeout: 15_000 }).toBe(false);
		expect(existsSync(yesterday.root)).toBe(true);
		expect(existsSync(inboxLayout(agentDir, sessionId).server)).toBe(true);
		await expect
			.poll(() => hubLog(hub.sb), { timeout: 5_000 })
			.toContainEqual(expect.objectContaining({ event: "server.stale_inboxes_removed", count: 1 }));
	});
});
