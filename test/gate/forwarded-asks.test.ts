/**
 * A child's parked ask (`unanswered: defer`) served here: its answer goes into the parked store, and one the store
 * refuses counts for nothing — no grant or saved rule it carried is made, and the audit line says why. The real
 * pipeline, a real parked store and a real audit file on disk; the human answers from a script.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import { AuditWriter } from "../../src/audit/audit-writer.ts";
import { buildForwardRequest } from "../../src/authority/build-forward-request.ts";
import type { DialogResult } from "../../src/authority/dialog-presenter.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { ForwardedAsks } from "../../src/gate/forwarded-asks.ts";
import { HubLog } from "../../src/hub/hub-log.ts";
import type { ForwardRequest } from "../../src/hub/protocol.ts";
import type { ServerAnswer } from "../../src/hub/transport.ts";
import { askFor } from "../authority/ask-fixture.ts";
import { bashParser } from "../classify/classify-fixture.ts";
import { policyFromConfig, tempDir } from "../policy/fixtures.ts";
import { pipelineWorld, type World, type WorldOptions } from "./pipeline-world.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const TREE: DialogResult = { kind: "answer", answer: { kind: "allow", scope: "tree" } };
const DENY: DialogResult = { kind: "answer", answer: { kind: "deny", withReason: false } };

interface Root {
	readonly world: World;
	readonly serve: (request: ForwardRequest) => Promise<ServerAnswer>;
	/** The audit lines written so far. */
	readonly audit: () => Promise<AuditEntry[]>;
	/** What this session's human was warned of. */
	readonly warnings: string[];
}

/** A root session serving forwarded asks, with its human answering from `script`. */
function root(options: WorldOptions): Root {
	const world = pipelineWorld(bash, policyFromConfig({}), options);
	const dir = tempDir();
	const file = join(dir, "audit.jsonl");
	const writer = new AuditWriter({ file });
	const warnings: string[] = [];
	const asks = new ForwardedAsks({
		sessionId: "session-under-test",
		pipeline: world.pipeline,
		parked: world.parked,
		sinks: { audit: writer, emit: () => undefined },
		dialogs: world.queue,
		treeGrants: world.treeGrants,
		log: new HubLog(join(dir, "hub.log")),
		warn: (message) => warnings.push(message),
		onPendingChange: () => undefined,
		permissionMode: () => "default",
		shownFor: () => null,
	});
	return {
		world,
		serve: (request) => asks.serve({ request, signal: new AbortController().signal }),
		audit: async () => {
			await writer.flush();
			return readFileSync(file, "utf8")
				.split("\n")
				.filter((line) => line !== "")
				.map((line) => parseAuditLine(line))
				.filter((entry): entry is AuditEntry => entry !== null);
		},
		warnings,
	};
}

/** What a child with the built-in defaults sends up for `command`; parked in `world`'s store when deferred. */
async function childAsk(
	world: World,
	command: string,
	unanswered: ForwardRequest["unanswered"],
): Promise<ForwardRequest> {
	const request = {
		...buildForwardRequest(askFor(bash, command), { sessionId: "child-1", path: ["root", "worker"] }),
		unanswered,
	};
	if (unanswered === "defer") await world.parked.park(request);
	return request;
}

/** Resolves once `count` dialogs wait in the queue (the one shown included). */
async function queued(world: World, count: number): Promise<void> {
	await expect.poll(() => world.queue.pending().length, { timeout: 5_000, interval: 5 }).toBe(count);
}

describe("a parked ask's answer the parked store refuses", () => {
	it("gone meanwhile (unknown): the whole-tree grant is never made, so a waiting ask it would cover is asked", async () => {
		let parkedId = "";
		const { world, serve, audit, warnings } = root({
			script: [
				async () => {
					// The second ask waits behind this dialog; then the request is removed, and the human grants.
					await queued(world, 2);
					rmSync(join(world.parked.dir, `${parkedId}.request.json`));
					return TREE;
				},
				DENY,
			],
		});
		const first = await childAsk(world, "npm install left-pad", "defer");
		parkedId = first.id;
		const second = await childAsk(world, "npm install is-odd", "wait");
		const answers = Promise.all([serve(first), serve(second)]);
		const [, waiting] = await answers;
		expect(world.presenter.shown[0]?.prompt.choices.map((c) => c.label)).toContain(
			"Allow for the whole tree: npm install *",
		);
		expect(world.grants.list()).toEqual([]);
		// The waiting ask got its own dialog, and its own answer: the refused grant settled nothing.
		expect(world.presenter.shown).toHaveLength(2);
		expect(waiting).toMatchObject({ decision: "deny", source: { kind: "user", verdict: "deny" } });
		const lines = await audit();
		expect(lines.find((l) => l.requestId === first.id)).toMatchObject({
			event: "forwarded_ask",
			outcome: "deny",
			answerRefused: "unknown",
			source: { kind: "user", verdict: "allow", scope: "tree" },
			reason: `no parked request with id ${first.id} any more (used up or removed meanwhile): this answer was not recorded`,
		});
		expect(warnings).toEqual([
			`pi-permission-hub: no parked request with id ${first.id} any more (used up or removed meanwhile): this answer was not recorded`,
		]);
	});

	it("too large to store (too_large): the ask stays parked, and the audit line says it is pending", async () => {
		const { world, serve, audit, warnings } = root({
			script: [{ ...DENY, answer: { kind: "deny", withReason: true }, reason: "\u0001".repeat(2000) }],
		});
		const request = await childAsk(world, "npm install left-pad", "defer");
		const answer = await serve(request);
		expect(answer).toMatchObject({ decision: "deny" });
		expect(world.parked.entries()).toEqual([{ request, answer: null }]);
		const [line] = await audit();
		expect(line).toMatchObject({
			event: "forwarded_ask",
			requestId: request.id,
			outcome: "pending",
			answerRefused: "too_large",
			source: { kind: "user", verdict: "deny" },
		});
		expect(line?.reason).toMatch(
			new RegExp(`^the answer to parked request ${request.id} was not recorded: .* the request stays parked`),
		);
		expect(warnings).toHaveLength(1);
	});

	it.each([
		["Always allow", "p", "allow"],
		["Always deny", "x", "deny"],
	] as const)(
		"answered meanwhile (answered): '%s' saves no rule and makes no grant",
		async (_, key, verdict) => {
			let parkedId = "";
			const { world, serve, audit } = root({
				script: [
					async () => {
						// Answered from the CLI while this dialog is open; then the human answers here.
						world.parked.answer(
							parkedId,
							"deny",
							{ kind: "user", via: "cli", verdict: "deny", scope: "once" },
							null,
							"closed from the CLI",
						);
						return { kind: "answer", answer: { kind: "always", verdict, where: "project" } };
					},
				],
			});
			const request = await childAsk(world, "touch notes.txt", "defer");
			parkedId = request.id;
			await serve(request);
			expect(world.presenter.shown[0]?.prompt.choices.map((c) => c.key)).toContain(key);
			expect(world.saved).toEqual([]);
			expect(world.grants.list()).toEqual([]);
			const [line] = await audit();
			expect(line).toMatchObject({
				requestId: request.id,
				outcome: "deny",
				answerRefused: "answered",
				source: { kind: "user", verdict, scope: "always" },
			});
			expect(world.parked.entries()[0]?.answer).toMatchObject({
				decision: "deny",
				reason: "closed from the CLI",
			});
		},
	);
});

describe("a parked ask's answer the parked store takes", () => {
	it("a whole-tree grant is stored and made: a waiting ask it covers settles without a dialog", async () => {
		const { world, serve, audit } = root({
			script: [
				async () => {
					await queued(world, 2);
					return TREE;
				},
			],
		});
		const first = await childAsk(world, "npm install left-pad", "defer");
		const second = await childAsk(world, "npm install is-odd", "wait");
		const [, waiting] = await Promise.all([serve(first), serve(second)]);
		expect(world.presenter.shown).toHaveLength(1);
		expect(world.grants.list().map((g) => [g.pattern, g.scope])).toEqual([["npm install *", "tree"]]);
		expect(waiting).toMatchObject({ decision: "allow", source: { kind: "session_grant", scope: "tree" } });
		expect(world.parked.entries()[0]?.answer).toMatchObject({
			decision: "allow",
			source: { kind: "user", verdict: "allow", scope: "tree" },
		});
		const line = (await audit()).find((l) => l.requestId === first.id);
		expect(line).toMatchObject({ outcome: "allow" });
		expect(line).not.toHaveProperty("answerRefused");
	});
});
