import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createExclusive } from "../../src/hub/private-files.ts";
import { spawnChild, tempAgentDir } from "./hub-fixture.ts";

describe("createExclusive", () => {
	it("the first writer wins, a second learns it, no temp file is left, the content is whole", () => {
		const dir = tempAgentDir();
		const file = join(dir, "answer.json");
		const first = `{"first":"${"a".repeat(100_000)}"}`;
		expect(createExclusive(file, first)).toEqual({ created: true });
		expect(createExclusive(file, '{"second":true}')).toEqual({ created: false, reason: "exists" });
		expect(readFileSync(file, "utf8")).toBe(first);
		expect(statSync(file).mode & 0o777).toBe(0o600);
		expect(readdirSync(dir)).toEqual(["answer.json"]);
	});

	it("does not replace an existing file of any kind", () => {
		const dir = tempAgentDir();
		writeFileSync(join(dir, "taken.json"), "original");
		expect(createExclusive(join(dir, "taken.json"), "new")).toEqual({ created: false, reason: "exists" });
		expect(readFileSync(join(dir, "taken.json"), "utf8")).toBe("original");
	});

	it("throws (and leaves nothing) when the directory is missing", () => {
		const dir = tempAgentDir();
		expect(() => createExclusive(join(dir, "gone", "x.json"), "x")).toThrow(/ENOENT/);
		expect(readdirSync(dir)).toEqual([]);
	});

	it("16 processes racing to create one response: exactly one wins, its content is whole, no temp files", async () => {
		const dir = tempAgentDir();
		const file = join(dir, "response.json");
		const go = join(dir, "go");
		const children = Array.from({ length: 16 }, () =>
			spawnChild({ mode: "create", file, go, padding: 200_000 }),
		);
		await Promise.all(children.map((c) => c.next((l) => l.event === "ready")));
		writeFileSync(go, "");
		const results = await Promise.all(children.map((c) => c.next((l) => l.event === "created")));
		const winners = results.filter((r) => r.created === true);
		expect(winners).toHaveLength(1);
		const winner = winners[0];
		expect(readFileSync(file, "utf8")).toBe(`written by ${String(winner?.pid)}\n${"x".repeat(200_000)}`);
		expect(readdirSync(dir).sort()).toEqual(["go", "response.json"]);
		console.log(`createExclusive race: 16 processes, winners=${winners.length}, pid ${String(winner?.pid)}`);
	});
});
