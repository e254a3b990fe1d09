/**
 * What is shown is what runs (adr/0021), in the CLI: a real headless pi run parks a chain hidden between PEM
 * markers, and `pending` and `explain` show its whole text — every part, never `«redacted»`, never cut.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	assertCliBuilt,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	parkedId,
	piRun,
	runCli,
	waitForAuditLines,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const removes = Array.from({ length: 60 }, (_, i) => `rm -rf build/cache${i}`).join("; ");
const COMMAND = `echo -----BEGIN PRIVATE KEY-----; ${removes}; rm -rf ../victim-outside; echo -----END PRIVATE KEY-----`;

describe("pending and explain show the whole command", () => {
	it("as the dialog and the audit do", async () => {
		const sb = await cliSandbox();
		const run = await piRun(sb, [bash(COMMAND)]);
		const id = parkedId(run.toolResults[0]?.text ?? "");
		expect(await waitForAuditLines(auditLogPath(sb), 1)).toMatchObject([{ preview: COMMAND }]);

		const pending = await runCli(sb, ["pending"]);
		expect(pending.code).toBe(0);
		expect(pending.stdout).toContain(`${id}  waiting`);
		expect(pending.stdout).toContain(`preview   ${COMMAND}\n`);
		const explain = await runCli(sb, ["explain", "victim-outside"]);
		expect(explain.code).toBe(0);
		expect(explain.stdout).toContain(`bash (destructive): ${COMMAND}\n`);
		for (const out of [pending.stdout, explain.stdout]) expect(out).not.toContain("«redacted»");
	});
});
