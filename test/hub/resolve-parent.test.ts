/**
 * A process started by a session inside another process: its parent is the session whose bash tool ran the
 * command (pi sets PI_SESSION_ID), when that session serves from the process our inherited link names; the
 * link's own session otherwise.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubLog } from "../../src/hub/hub-log.ts";
import { HubServer } from "../../src/hub/hub-server.ts";
import { inboxLayout, serializeParentLink } from "../../src/hub/protocol.ts";
import { type ParentInputs, resolveParent } from "../../src/hub/resolve-parent.ts";
import { ALLOW_BY_TEST, onCleanup, tempAgentDir } from "./hub-fixture.ts";

const ROOT = "0192f3a4-5b6c-7d8e-9f00-000000000001";
const IN_PROCESS_CHILD = "0192f3a4-5b6c-7d8e-9f00-000000000002";

/** A real serving inbox for `sessionId` in this process, as a session of pi would open it. */
async function serving(agentDir: string, sessionId: string, path: readonly string[]): Promise<void> {
	const server = new HubServer({
		undelivered: () => undefined,
		layout: inboxLayout(agentDir, sessionId),
		base: agentDir,
		sessionId,
		path,
		log: new HubLog(join(agentDir, "hub.log")),
		decide: async () => ALLOW_BY_TEST,
	});
	await server.open();
	onCleanup(() => server.close());
}

/** A process this one spawned (another pid), with the root's link and `PI_SESSION_ID` inherited. */
function grandchild(agentDir: string, spawnedBy: string | undefined, project?: string): ParentInputs {
	const link = serializeParentLink({
		v: 1,
		sessionId: ROOT,
		inbox: inboxLayout(agentDir, ROOT).root,
		pid: process.pid,
		path: ["root"],
		...(project === undefined ? {} : { project }),
	});
	return {
		sessionId: "0192f3a4-5b6c-7d8e-9f00-000000000003",
		hasUI: false,
		agentDir,
		inherited: { PI_PERMISSION_HUB_PARENT: link, PI_SESSION_ID: spawnedBy },
		env: {},
		pid: process.pid + 100_000,
		sessionFile: null,
	};
}

describe("the root's project travels down the link (adr/0008)", () => {
	it("a child process learns the project its root names; an older link names none", () => {
		const agentDir = tempAgentDir();
		expect(resolveParent(grandchild(agentDir, undefined, "/work/project"))).toMatchObject({
			kind: "child",
			parent: { sessionId: ROOT, project: "/work/project" },
		});
		const older = resolveParent(grandchild(agentDir, undefined));
		expect(older.kind === "child" ? older.parent.project : "not a child").toBeUndefined();
	});
});

describe("the parent of a process started inside another pi process", () => {
	it("started by an in-process child's bash: that child, with its hop in the path", async () => {
		const agentDir = tempAgentDir();
		await serving(agentDir, ROOT, ["root"]);
		await serving(agentDir, IN_PROCESS_CHILD, ["root", "planner"]);
		const found = resolveParent(grandchild(agentDir, IN_PROCESS_CHILD));
		expect(found).toMatchObject({
			kind: "child",
			parent: {
				sessionId: IN_PROCESS_CHILD,
				inbox: inboxLayout(agentDir, IN_PROCESS_CHILD).root,
				pid: process.pid,
				path: ["root", "planner"],
			},
		});
	});

	it("started by the root's bash, or naming a session that does not serve from the linked process: the root", async () => {
		const agentDir = tempAgentDir();
		await serving(agentDir, ROOT, ["root"]);
		const root = {
			kind: "child",
			parent: { sessionId: ROOT, path: ["root"], via: "PI_PERMISSION_HUB_PARENT" },
		};
		expect(resolveParent(grandchild(agentDir, ROOT))).toMatchObject(root);
		expect(resolveParent(grandchild(agentDir, undefined))).toMatchObject(root);
		// No inbox at all for the named session.
		expect(resolveParent(grandchild(agentDir, IN_PROCESS_CHILD))).toMatchObject(root);
		// An inbox whose server.json names another process: not a session of the process the link names.
		await serving(agentDir, IN_PROCESS_CHILD, ["root", "planner"]);
		const elsewhere = grandchild(agentDir, IN_PROCESS_CHILD);
		const otherProcessLink = serializeParentLink({
			v: 1,
			sessionId: ROOT,
			inbox: inboxLayout(agentDir, ROOT).root,
			pid: process.pid + 1,
			path: ["root"],
		});
		expect(
			resolveParent({
				...elsewhere,
				inherited: { ...elsewhere.inherited, PI_PERMISSION_HUB_PARENT: otherProcessLink },
			}),
		).toMatchObject(root);
	});
});
