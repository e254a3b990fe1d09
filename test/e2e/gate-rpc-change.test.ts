/**
 * "See what you approve": real pi in RPC mode with the built extension, a scripted model making `edit` and
 * `write` calls, and the test reading the dialog's select title as an RPC client gets it.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { auditEntries, gateSandbox, scriptOf, stopRpcAndCleanUp } from "./gate-support.ts";

afterEach(stopRpcAndCleanUp);

/** The one select dialog of a run, as the RPC client got it. */
function onlySelectTitle(dialogs: readonly { request: { method: string; title?: string } }[]): string {
	expect(dialogs).toHaveLength(1);
	const [dialog] = dialogs;
	if (dialog?.request.method !== "select" || dialog.request.title === undefined)
		throw new Error("expected one select dialog");
	return dialog.request.title;
}

describe("an edit dialog", () => {
	it("holds the removed and added lines, diffed against the file on disk, with a secret redacted", async () => {
		const sb = await gateSandbox();
		await sb.writeWorkFile(
			"config.ts",
			[
				"export const port = 3000;",
				'export const apiKey = "API_KEY=sk-live0123456789abcdefXYZ";',
				"export const retries = 2;",
				"export const debug = false;",
				"",
			].join("\n"),
		);
		await writeScript(
			sb,
			scriptOf([
				{
					tool: "edit",
					input: {
						path: "config.ts",
						edits: [
							{
								oldText: "export const retries = 2;",
								newText: "export const retries = 5;\nexport const backoffMs = 250;",
							},
						],
					},
				},
			]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			dialog: pickOption("Allow once"),
		});

		const run = await rpc.prompt("raise the retries");

		const title = onlySelectTitle(run.dialogs);
		expect(title).toContain("Permission needed: edit (write)");
		expect(title).toContain("edit: config.ts: 1 edit, +2/-1 lines");
		expect(title).toContain("Change: 1 line removed, 2 added");
		expect(title).toContain(
			[
				"@@ -1,4 +1,5 @@",
				" export const port = 3000;",
				' export const apiKey = "API_KEY=«redacted»";',
				"-export const retries = 2;",
				"+export const retries = 5;",
				"+export const backoffMs = 250;",
				" export const debug = false;",
			].join("\n"),
		);
		expect(title).not.toContain("sk-live0123456789");
		expect(readFileSync(sb.workPath("config.ts"), "utf8")).toContain("export const backoffMs = 250;");
		// The diff is for the human only: the audit keeps the one-line preview it always had.
		const [entry] = await auditEntries(sb, 1);
		expect(entry).toMatchObject({
			tool: "edit",
			outcome: "allow",
			preview: "config.ts: 1 edit, +2/-1 lines",
		});
	});
});

describe("a write dialog", () => {
	it("of a new file holds its size and its first lines, capped with a count of the rest", async () => {
		const sb = await gateSandbox();
		const content = `${Array.from({ length: 100 }, (_, i) => `row ${i + 1}`).join("\n")}\n`;
		await writeScript(sb, scriptOf([{ tool: "write", input: { path: "notes/rows.txt", content } }]));
		const rpc = await startRpc({ sandbox: sb, extensions: [EXTENSION_ENTRY], dialog: pickOption("Deny") });

		const run = await rpc.prompt("write the rows");

		const title = onlySelectTitle(run.dialogs);
		expect(title).toContain(`Change: new file, ${Buffer.byteLength(content)} bytes, 100 lines`);
		expect(title).toContain("+row 1\n+row 2\n+row 3\n");
		expect(title).toContain("+row 60\n… 40 more lines");
		expect(title).not.toContain("+row 61");
	});
});
