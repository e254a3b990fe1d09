/** What the human hears at session start about parked asks whose answer file this version never uses. */
import { describe, expect, it } from "vitest";
import { unusableParkedAnswersNotice } from "../../src/gate/unusable-parked-answers.ts";
import { makeRequest } from "../hub/sample-request.ts";

describe("parked asks with an unusable answer", () => {
	it("says nothing when every parked answer is usable", () => {
		expect(unusableParkedAnswersNotice([])).toBeNull();
	});

	it("names each such ask with why its answer is not taken", () => {
		const a = makeRequest({ tool: "bash", preview: "npm publish" });
		const b = makeRequest({ tool: "write", preview: "x".repeat(120) });
		const notice = unusableParkedAnswersNotice([
			{ request: a, answer: { newerFormat: 9 } },
			{ request: b, answer: { foreign: "action" } },
		]);
		const lines = notice?.split("\n") ?? [];
		expect(lines[0]).toBe("pi-permission-hub: 2 parked asks of this project:");
		expect(lines[1]).toMatch(
			new RegExp(`^  parked ${a.id} \\(bash: npm publish\\): answered by a newer version`),
		);
		expect(lines[2]).toBe(
			`  parked ${b.id} (write: ${"x".repeat(80)}): has an answer for another action: ignored, never taken as an approval (and no other answer can be recorded while that file is there)`,
		);
		expect(
			unusableParkedAnswersNotice([{ request: a, answer: { foreign: "unreadable" } }])?.split("\n")[0],
		).toBe("pi-permission-hub: a parked ask of this project:");
	});
});
