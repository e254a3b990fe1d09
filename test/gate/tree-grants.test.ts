/**
 * TreeGrants, the whole-tree grant in one place (adr/0002, adr/0006): which grant covers a child's ask, keeping
 * the ones an answer gives, and letting the asks waiting for a dialog check again. Real grants store, real
 * dialog queue, real classifier and policy.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DialogQueue } from "../../src/authority/dialog-queue.ts";
import { SessionGrants } from "../../src/authority/session-grants.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { TreeGrants } from "../../src/gate/tree-grants.ts";
import type { GrantScope, SessionGrant } from "../../src/policy/grant-coverage.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { policyFrom, subagent } from "../policy/fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const WORKER = subagent("worker");

function grant(id: string, scope: GrantScope, pattern = "npm install *"): SessionGrant {
	return {
		id,
		surface: "command",
		pattern,
		scope,
		limit: { tier: "network-egress", outsideCwd: false },
		grantedAt: "2026-12-01T00:00:00.000Z",
	};
}

function session() {
	const grants = new SessionGrants(`tree-grants-test-${Math.random()}`);
	const dialogs = new DialogQueue();
	return { grants, dialogs, tree: new TreeGrants(grants, dialogs) };
}

describe("TreeGrants", () => {
	it("only a whole-tree grant covers a child's ask: a session grant for the same pattern does not", () => {
		const { grants, tree } = session();
		const action = classifyBash(bash, "npm install left-pad");
		const policy = policyFrom(null);
		grants.add([grant("s1", "session")]);
		expect(tree.covering(action, policy, WORKER)).toBeNull();
		expect(tree.settle(action, policy, WORKER)).toBeNull();
		grants.add([grant("t1", "tree")]);
		expect(tree.covering(action, policy, WORKER)?.id).toBe("t1");
		expect(tree.settle(action, policy, WORKER)).toEqual({
			outcome: "allow",
			source: {
				kind: "session_grant",
				grantId: "t1",
				surface: "command",
				pattern: "npm install *",
				scope: "tree",
			},
			scope: "once",
			grants: [],
		});
		expect(tree.covering(classifyBash(bash, "npm publish"), policy, WORKER)).toBeNull();
	});

	it("a covering grant never answers what an ask rule asks", () => {
		const { grants, tree } = session();
		grants.add([grant("t1", "tree")]);
		const policy = policyFrom(
			JSON.stringify({ rules: [{ surface: "command", pattern: "npm install *", action: "ask" }] }),
		);
		expect(tree.covering(classifyBash(bash, "npm install left-pad"), policy, WORKER)).toBeNull();
	});

	it("keeps only the whole-tree grants of an answer, and only when the answer stands", () => {
		const { grants, tree } = session();
		tree.keep([grant("s1", "session"), grant("sub1", "subagent"), grant("t1", "tree")], () => false);
		expect(grants.list()).toEqual([]);
		tree.keep([grant("s1", "session"), grant("sub1", "subagent"), grant("t1", "tree")], () => true);
		expect(grants.list().map((g) => g.id)).toEqual(["t1"]);
	});

	it("asks whether the answer stands only when it gives a whole-tree grant (asking stores a parked answer)", () => {
		const { tree } = session();
		let asked = 0;
		tree.keep([grant("s1", "session")], () => {
			asked += 1;
			return true;
		});
		tree.keep([], () => {
			asked += 1;
			return true;
		});
		expect(asked).toBe(0);
	});

	it("lets every ask waiting for a dialog check again", async () => {
		const { dialogs, tree } = session();
		const checked: string[] = [];
		let release = (): void => undefined;
		// The open dialog holds its turn until released, so the other one waits in the queue.
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		const open = dialogs.run({ id: "open" }, () => held);
		const waiting = dialogs.run(
			{ id: "waiting", recheck: () => checked.push("waiting") },
			async () => undefined,
		);
		tree.recheckWaiting();
		expect(checked).toEqual(["waiting"]);
		release();
		await Promise.all([open, waiting]);
	});
});
