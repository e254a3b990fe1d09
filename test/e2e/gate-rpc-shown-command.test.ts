/**
 * What is shown is what runs (adr/0021), in real pi over RPC with the test playing a human who reads: a chain
 * hidden between PEM markers (the old redactor showed it as `echo «redacted»`) reaches the client whole — every
 * `rm` part and the directory outside the project it deletes — before anything is allowed, and the audit
 * records the same text.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DialogRequest } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { auditEntries, bash, gateSandbox, scriptOf, stopRpcAndCleanUp } from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

const PARTS = 60;
const removes = Array.from({ length: PARTS }, (_, i) => `rm -rf build/cache${i}`);
const COMMAND = `echo -----BEGIN PRIVATE KEY-----; ${removes.join("; ")}; rm -rf ../victim-outside; echo -----END PRIVATE KEY-----`;

describe("a chain hidden between PEM markers", () => {
	it("reaches the dialog whole, with the outside directory named, before it is allowed; the audit keeps the same text", async () => {
		const sb = await gateSandbox();
		const outside = path.join(path.dirname(sb.workDir), "victim-outside");
		mkdirSync(outside);
		writeFileSync(path.join(outside, "keep.txt"), "keep me");
		await writeScript(sb, scriptOf([bash(COMMAND)]));
		const seen: DialogRequest[] = [];
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			// A human who allows only what they could read whole, and denies otherwise.
			dialog: (request) => {
				seen.push(request);
				if (request.method !== "select") return { cancel: true };
				const readable =
					request.title.includes(`bash: ${COMMAND}`) &&
					request.title.includes("Outside the project: ../victim-outside");
				return { select: readable ? "Allow once" : "Deny" };
			},
		});

		const run = await rpc.prompt("clean the caches");

		const [dialog] = seen;
		if (dialog?.method !== "select") throw new Error("expected one select dialog");
		const lines = dialog.title.split("\n");
		expect(lines[1]).toBe(`bash: ${COMMAND}`);
		expect(lines[2]).toBe("Outside the project: ../victim-outside");
		for (const part of [...removes, "rm -rf ../victim-outside"]) expect(dialog.title).toContain(`${part};`);
		expect(dialog.title).not.toContain("«redacted»");
		expect(run.toolResults).toMatchObject([{ toolName: "bash", isError: false }]);
		expect(existsSync(outside)).toBe(false);
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			preview: COMMAND,
			outcome: "allow",
			source: { kind: "user", scope: "once" },
		});
	});
});
