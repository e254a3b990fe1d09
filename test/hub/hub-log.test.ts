/** The hub's diagnostics log on a real file: lines in the order written, all on disk once flushed, never throws. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubLog } from "../../src/hub/hub-log.ts";
import { tempAgentDir } from "./hub-fixture.ts";

describe("HubLog", () => {
	it("keeps 500 back-to-back lines in the order they were written; flushed() means they are all on disk", async () => {
		const file = join(tempAgentDir(), "hub.log");
		const log = new HubLog(file);
		for (let n = 0; n < 500; n++) log.write("tick", { n });
		await log.flushed();
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		expect(lines.map((line) => JSON.parse(line).n)).toEqual([...Array(500).keys()]);
		expect(JSON.parse(lines[0] ?? "")).toMatchObject({ event: "tick", pid: process.pid });
	});

	it("a log in a missing directory loses the line and says nothing: diagnostics never fail the hub", async () => {
		const file = join(tempAgentDir(), "no-such-dir", "hub.log");
		const log = new HubLog(file);
		log.write("lost", {});
		await expect(log.flushed()).resolves.toBeUndefined();
		log.write("after", {});
		await expect(log.flushed()).resolves.toBeUndefined();
	});
});
