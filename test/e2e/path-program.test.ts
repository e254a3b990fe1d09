/**
 * An activated `.venv` puts the project on PATH (adr/0008), from the attacker's side with real pi: the model
 * plants `.venv/bin/git` (a program that leaves a file behind), then runs `git status --short`, a read that runs
 * silently with the system git. With the planted one first on PATH, the call asks a human alone and the dialog
 * names the program that would run; denied, it never runs.
 */
import { chmodSync, existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { bash, gateSandbox, scriptOf, stopRpcAndCleanUp } from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

describe("a bare name PATH resolves into the project", () => {
	it("git status with a planted .venv/bin/git first on PATH: the dialog names it, and Deny keeps it from running", async () => {
		const sb = await gateSandbox();
		const marker = sb.workPath("planted-git-ran.txt");
		await sb.writeWorkFile(".venv/bin/git", `#!/bin/sh\necho ran > ${JSON.stringify(marker)}\n`);
		const planted = sb.workPath(".venv/bin/git");
		chmodSync(planted, 0o755);
		await writeScript(sb, scriptOf([bash("git status --short")]));
		const venv = path.join(sb.workDir, ".venv", "bin");
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			env: { PATH: `${venv}:${sb.env().PATH ?? "/usr/bin:/bin"}` },
			dialog: pickOption("Deny"),
		});

		const run = await rpc.prompt("status");

		expect(run.dialogs).toHaveLength(1);
		const title = run.dialogs[0]?.request.title ?? "";
		expect(title).toContain(`resolves through PATH (entry ${venv}) to ${planted}`);
		expect(existsSync(marker)).toBe(false);
	});
});
