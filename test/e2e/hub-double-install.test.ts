/**
 * The extension installed twice (settings `extensions` and `-e`) in the root and in its child: one copy gates
 * each session and the other stays passive, so every ask, the root's own and the child's forwarded one, is shown
 * once and recorded once.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { copyOfBuild } from "./gate-support.ts";
import {
	auditNow,
	bashCall,
	childRun,
	cleanUpHubWorlds,
	conversation,
	hubSandbox,
	isForwarded,
	launch,
	startRoot,
	writeTree,
} from "./hub-support.ts";

const DROPPER_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "gate-owner-dropper-extension.ts");

afterEach(cleanUpHubWorlds);

describe("installed twice", () => {
	it("asks the root's own call once and shows the child's forwarded ask once (the child has two copies too)", async () => {
		const hub = await hubSandbox();
		const secondCopy = await copyOfBuild(hub.sb);
		await hub.sb.writeWorkFile("own.txt", "root's");
		await hub.sb.writeWorkFile("victim.txt", "child's");
		await writeTree(hub.sb, [
			conversation("[child]", [bashCall("rm -f victim.txt")]),
			conversation(
				undefined,
				[bashCall("rm -f own.txt")],
				[launch("child", "[child] remove the victim", { args: ["-e", secondCopy] })],
			),
		]);
		const { rpc, sessionId: rootId } = await startRoot(hub, pickOption("Allow once"), {
			extensions: [secondCopy],
		});

		const run = await rpc.prompt("clean up, then delegate");

		expect(existsSync(hub.sb.workPath("own.txt"))).toBe(false);
		expect(existsSync(hub.sb.workPath("victim.txt"))).toBe(false);
		expect(childRun(hub, "child").toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		const titles = run.dialogs.map((d) => d.request.title.split("\n")[1]);
		expect(titles).toEqual(["bash: rm -f own.txt", "bash: rm -f victim.txt"]);
		expect(run.dialogs.filter((d) => isForwarded(d.request))).toHaveLength(1);

		// One decision recorded per ask: the root's own call once, the forwarded ask once on each side.
		await expect
			.poll(() => auditNow(hub.sb).filter((e) => e.tool === "bash").length, { timeout: 5_000 })
			.toBe(3);
		const entries = auditNow(hub.sb).filter((e) => e.tool === "bash");
		expect(entries.filter((e) => e.sessionId === rootId).map((e) => e.event)).toEqual(
			expect.arrayContaining(["tool_call", "forwarded_ask"]),
		);
	});

	it("the passive copy takes over (never ungated) once the copy that gated the session is gone", async () => {
		const hub = await hubSandbox();
		const secondCopy = await copyOfBuild(hub.sb);
		await hub.sb.writeWorkFile("victim.txt", "keep me");
		await writeTree(hub.sb, [
			conversation(undefined, [{ tool: "drop_gate_owner", input: {} }], [bashCall("rm -f victim.txt")]),
		]);
		const { rpc } = await startRoot(hub, pickOption("Deny"), {
			extensions: [secondCopy, DROPPER_FIXTURE],
		});

		const run = await rpc.prompt("forget the gate, then delete");

		expect(run.toolResults).toMatchObject([
			{ toolName: "drop_gate_owner", isError: false, text: "dropped" },
			{ toolName: "bash", isError: true },
		]);
		// The copy that took over asked (the stand-in for the gone copy cannot), and the deny held.
		expect(run.dialogs.length).toBeGreaterThanOrEqual(1);
		expect(existsSync(path.join(hub.sb.workDir, "victim.txt"))).toBe(true);
	});
});
