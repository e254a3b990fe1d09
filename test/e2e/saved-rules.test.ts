/**
 * Rules saved from the dialog (adr/0018), in real pi over RPC: an "Always" answer in one session decides the
 * same kind of call in the next one, the user config keeps its comments, and removing the rule brings the
 * dialog back.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-support.ts";
import { pickOption, scripted } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { PermissionsWalk, walking } from "../harness/permissions-walk.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	auditEntries,
	bash,
	gateSandbox,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

const COMMENTED_CONFIG = `// My permission settings.
{
	// Keep waiting a minute for me.
	"dialogTimeoutSeconds": 60,
}
`;

/** One pi session over RPC running `commands`, answering every dialog with the option containing `answer`. */
async function session(sb: Sandbox, commands: readonly string[], answer: string) {
	await writeScript(sb, scriptOf(commands.map(bash)));
	const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: pickOption(answer) });
	try {
		const run = await rpc.prompt("go");
		return run.dialogs.map((d) => (d.request.method === "select" ? d.request.title.split("\n")[1] : ""));
	} finally {
		await killAllRpc();
	}
}

function configText(sb: Sandbox): string {
	return readFileSync(path.join(sb.agentDir, "pi-permission-hub", "config.json"), "utf8");
}

describe("saved rules (adr/0018)", () => {
	it("'Always allow' holds in the next session, never for a riskier call; the config keeps its comments; removing the rule brings the dialog back", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, COMMENTED_CONFIG);

		const first = await session(sb, ["touch notes.txt"], `Always allow in ${sb.workDir}: touch *`);
		expect(first).toEqual(["bash: touch notes.txt"]);
		expect(existsSync(sb.workPath("notes.txt"))).toBe(true);
		const saved = configText(sb);
		expect(saved).toContain("// My permission settings.");
		expect(saved).toContain("// Keep waiting a minute for me.");
		expect(saved).toContain('"pattern": "touch *"');
		expect(saved).toContain(`"directory": ${JSON.stringify(sb.workDir)}`);

		// The next session: the same kind of call runs unasked; one leaving the project still asks.
		const outside = path.join(sb.home, "outside.txt");
		const second = await session(sb, ["touch other.txt", `touch ${outside}`], "Deny");
		expect(existsSync(sb.workPath("other.txt"))).toBe(true);
		expect(second).toEqual([`bash: touch ${outside}`]);
		expect(existsSync(outside)).toBe(false);
		const entries = await auditEntries(sb, 3);
		expect(entries[0]?.source).toMatchObject({ kind: "user", verdict: "allow", scope: "always" });
		expect(entries[1]?.source).toMatchObject({
			kind: "rule",
			surface: "command",
			pattern: "touch *",
			action: "allow",
			saved: expect.any(String),
		});

		const listed = await runCli(sb, ["rules", "list"]);
		expect(listed.stdout).toContain(
			`[0] allow command "touch *" in ${sb.workDir} (up to write, inside the cwd)`,
		);
		const removed = await runCli(sb, ["rules", "remove", "0"]);
		expect(removed.code).toBe(0);
		expect(configText(sb)).toBe(COMMENTED_CONFIG.replace("60,\n}", '60,\n\t"rules": [\n\t],\n}'));

		const third = await session(sb, ["touch third.txt"], "Deny");
		expect(third).toEqual(["bash: touch third.txt"]);
		expect(existsSync(sb.workPath("third.txt"))).toBe(false);
	});

	it("'Always deny' blocks the same kind of call in the next session without a dialog", async () => {
		const sb = await gateSandbox();

		const first = await session(sb, ["touch a.txt"], `Always deny in ${sb.workDir}: touch *`);
		expect(first).toEqual(["bash: touch a.txt"]);
		const second = await session(sb, ["touch b.txt"], "Allow once");
		expect(second).toEqual([]);
		expect(existsSync(sb.workPath("a.txt"))).toBe(false);
		expect(existsSync(sb.workPath("b.txt"))).toBe(false);
		const entries = await auditEntries(sb, 2);
		expect(entries.map((e) => [e.outcome, e.source.kind])).toEqual([
			["deny", "user"],
			["deny", "rule"],
		]);
		expect(entries[1]?.source).toMatchObject({
			action: "deny",
			pattern: "touch *",
			saved: expect.any(String),
		});
	});

	it("/permissions lists the saved rules in force and removes the one chosen, in the live session", async () => {
		const sb = await gateSandbox();
		await session(sb, ["touch notes.txt"], `Always allow in ${sb.workDir}: touch *`);

		await writeScript(sb, scriptOf([bash("touch after.txt")]));
		const walk = new PermissionsWalk((line) => line.startsWith('allow command "touch *" (up to write)'));
		const report = walk.lines;
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: walking(walk, scripted([{ confirm: true }, pickOption("Deny")])),
		});
		await rpc.prompt("/permissions");
		expect(report).toContain("── Saved rules in force here (choose one to remove it) ──");
		expect(configText(sb)).not.toContain('"saved"');

		// Gone from the file, gone from the session: the same kind of call asks again.
		const run = await rpc.prompt("go");
		expect(run.dialogs.map((d) => d.request.method === "select" && d.request.title.split("\n")[1])).toEqual([
			"bash: touch after.txt",
		]);
		expect(existsSync(sb.workPath("after.txt"))).toBe(false);
	});
});
