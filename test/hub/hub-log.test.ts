/** The hub's diagnostics log on a real file: lines in the order written, on disk at once, never throws or blocks. */
import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubLog } from "../../src/hub/hub-log.ts";
import { tempAgentDir } from "./hub-fixture.ts";

describe("HubLog", () => {
	it("keeps 500 back-to-back lines in the order they were written, each on disk when write returns", () => {
		const file = join(tempAgentDir(), "hub.log");
		const log = new HubLog(file);
		for (let n = 0; n < 500; n++) log.write("tick", { n });
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		expect(lines.map((line) => JSON.parse(line).n)).toEqual([...Array(500).keys()]);
		expect(JSON.parse(lines[0] ?? "")).toMatchObject({ event: "tick", pid: process.pid });
	});

	it("a FIFO at its name loses the line at once: nothing waits on it, so pi can exit", () => {
		const file = join(tempAgentDir(), "hub.log");
		execFileSync("mkfifo", [file]);
		const log = new HubLog(file);
		const started = performance.now();
		expect(() => log.write("lost", {})).not.toThrow();
		expect(performance.now() - started).toBeLessThan(1_000);
	});

	it("a link at its name is not followed: its target keeps what it held", () => {
		const dir = tempAgentDir();
		const target = join(dir, "bashrc");
		writeFileSync(target, "alias ll='ls -l'\n");
		symlinkSync(target, join(dir, "hub.log"));
		new HubLog(join(dir, "hub.log")).write("lost", {});
		expect(readFileSync(target, "utf8")).toBe("alias ll='ls -l'\n");
	});
});
