/**
 * A session's own decisions, recorded (adr/0005): each on disk in the audit log and on pi's bus, the last ones
 * kept for `/permissions`, the blocked ones counted; an allowed call whose line cannot be written is blocked.
 * Real outcomes from the real pipeline, a real audit writer on real files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AuditWriter } from "../../src/audit/audit-writer.ts";
import { NobodyAuthorizer } from "../../src/authority/choose-terminal.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { DECISION_EVENT_CHANNEL } from "../../src/gate/decision-events.ts";
import type { GateOutcome } from "../../src/gate/gate-outcome.ts";
import { SessionDecisions } from "../../src/gate/session-decisions.ts";
import { bashParser, CWD } from "../classify/classify-fixture.ts";
import { policyFromConfig, tempDir } from "../policy/fixtures.ts";
import { pipelineWorld } from "./pipeline-world.ts";

let bash: BashParser;
let allowed: GateOutcome;
let refused: GateOutcome;
const policy = policyFromConfig({});
beforeAll(async () => {
	bash = await bashParser();
	const { pipeline } = pipelineWorld(bash, policy, {
		terminal: new NobodyAuthorizer("no UI and no parent", null),
	});
	const run = async (command: string) =>
		(await pipeline.run({ kind: "tool_call", call: { tool: "bash", input: { command }, cwd: CWD } })).outcome;
	allowed = await run("ls");
	refused = await run("npm install left-pad");
});

function decisionsOn(file: string) {
	const emitted: { channel: string; data: unknown }[] = [];
	const decisions = new SessionDecisions({
		sessionId: "s1",
		origin: { kind: "human" },
		audit: new AuditWriter({ file }),
		events: { emit: (channel, data) => emitted.push({ channel, data }) },
		permissionMode: () => "default",
	});
	return { decisions, emitted };
}

const own = (tool = "bash") =>
	({ event: "tool_call", tool, fallbackPreview: "{}", started: 0, policy }) as const;

describe("a session's decisions", () => {
	it("an allowed call's line is on disk when record returns; it is broadcast and kept for /permissions", () => {
		expect(allowed.outcome).toBe("allow");
		const file = join(tempDir(), "audit.jsonl");
		const { decisions, emitted } = decisionsOn(file);
		expect(decisions.record(allowed, own())).toBe(allowed);
		const line = JSON.parse(readFileSync(file, "utf8"));
		expect(line).toMatchObject({
			sessionId: "s1",
			tool: "bash",
			outcome: "allow",
			permissionMode: "default",
		});
		expect(emitted.map((e) => e.channel)).toEqual([DECISION_EVENT_CHANNEL]);
		expect(decisions.recent.map((d) => d.outcome)).toEqual(["allow"]);
		expect(decisions.blockedSummary()).toBeNull();
	});

	it("an allowed call whose line cannot be written is blocked as a gate error, and counted", () => {
		const notADirectory = join(tempDir(), "file");
		writeFileSync(notADirectory, "");
		const { decisions } = decisionsOn(join(notADirectory, "audit.jsonl"));
		const recorded = decisions.record(allowed, own());
		expect(recorded).toMatchObject({ outcome: "deny", source: { kind: "gate_error" } });
		expect(recorded.reason).toContain("audit");
		expect(decisions.blockedSummary()).toBe(
			"pi-permission-hub: blocked 1 call in this run: 1 refused (pi-permission-hub explain s1)",
		);
	});

	it("keeps the last 20 decisions, newest last, and counts every refusal", async () => {
		expect(refused.outcome).toBe("deny");
		const { decisions } = decisionsOn(join(tempDir(), "audit.jsonl"));
		for (let i = 0; i < 25; i++) decisions.record(i < 24 ? refused : allowed, own(`tool-${i}`));
		expect(decisions.recent.map((d) => d.tool)).toEqual(
			Array.from({ length: 20 }, (_, i) => `tool-${i + 5}`),
		);
		expect(decisions.blockedSummary()).toBe(
			"pi-permission-hub: blocked 24 calls in this run: 24 refused (pi-permission-hub explain s1)",
		);
	});
});
