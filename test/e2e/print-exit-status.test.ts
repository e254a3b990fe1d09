/**
 * `pi -p --permission-exit-status`: a script can tell from the exit status that calls were parked or refused
 * (real pi, the built extension, print and JSON mode). Without the flag pi's own status stands.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { runPrint } from "../harness/print-run.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import { bash, cleanupSandboxes, gateSandbox, scriptOf, writeUserConfig } from "./gate-support.ts";

afterEach(cleanupSandboxes);

const FLAG = "--permission-exit-status";

async function run(sb: Sandbox, commands: readonly string[], args: readonly string[], mode?: "json") {
	await writeScript(sb, scriptOf(commands.map(bash)));
	return runPrint({
		sandbox: sb,
		prompt: "do the task",
		extensions: [EXTENSION_ENTRY],
		args,
		...(mode ? { mode } : {}),
	});
}

describe("pi -p --permission-exit-status", () => {
	it("exits 3 when a call was parked for approval, 4 when one was refused, 0 when all ran", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile("old.log", "x");
		await writeUserConfig(sb, {
			rules: [{ surface: "command", pattern: "curl *", action: "deny", reason: "no network here" }],
		});

		const parked = await run(sb, ["rm -f old.log"], [FLAG]);
		expect(parked.stderr).toContain("blocked 1 call in this run: 1 parked for approval");
		expect(parked.code).toBe(3);

		const refused = await run(sb, ["rm -f old.log", "curl https://example.com"], [FLAG], "json");
		expect(refused.stderr).toContain("1 refused");
		expect(refused.code).toBe(4);

		const ran = await run(sb, ["ls"], [FLAG]);
		expect(ran.stderr).not.toContain("pi-permission-hub:");
		expect(ran.code).toBe(0);

		// Without the flag the status is pi's own: a blocked call is no failure of the run.
		const unflagged = await run(sb, ["rm -f old.log"], []);
		expect(unflagged.stderr).toContain("parked for approval");
		expect(unflagged.code).toBe(0);
	});
});
