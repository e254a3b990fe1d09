import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import {
	auditEntries,
	bash,
	entryFor,
	gateSandbox,
	resultOf,
	scriptOf,
	stopRpcAndCleanUp,
	writeUserConfig,
} from "./gate-support.ts";

const GIT_GUARD = path.join(REPO_ROOT, "examples", "git-guard", "index.ts");

afterEach(stopRpcAndCleanUp);

describe("the example link (examples/git-guard) in the chain of real pi", () => {
	it("allows a fetch, denies a push to main, and defers anything else to the human", async () => {
		const sb = await gateSandbox();
		await writeUserConfig(sb, { authorizerChain: ["git-guard"] });
		await writeScript(
			sb,
			scriptOf([bash("git fetch --dry-run"), bash("git push origin main"), bash("git push origin feature")]),
		);
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY, GIT_GUARD],
			dialog: pickOption("Deny"),
			timeoutMs: 30_000,
		});
		const run = await rpc.prompt("sync");
		const result = (command: string) => resultOf(run.records, run.toolResults, command);

		// The fetch ran (git itself fails: no repository), so it was not blocked by us.
		expect(result("git fetch --dry-run").text).not.toContain("pi-permission-hub");
		expect(result("git push origin main").text).toContain('the authorizer "git-guard" denied');
		expect(result("git push origin main").text).toContain("protected branch");
		// Only the push to a feature branch reached the human.
		expect(run.dialogs).toHaveLength(1);
		expect(run.dialogs[0]?.request.title).toContain("git push origin feature");

		const entries = await auditEntries(sb, 3);
		expect(entryFor(entries, "git fetch --dry-run")).toMatchObject({
			outcome: "allow",
			source: { kind: "authorizer", link: "git-guard", verdict: "allow" },
			chain: [{ link: "git-guard", result: "allow" }],
		});
		expect(entryFor(entries, "git push origin main")).toMatchObject({
			outcome: "deny",
			source: { kind: "authorizer", link: "git-guard", verdict: "deny" },
		});
		expect(entryFor(entries, "git push origin feature")).toMatchObject({
			outcome: "deny",
			source: { kind: "user", via: "dialog", verdict: "deny" },
			chain: [{ link: "git-guard", result: "defer" }],
		});
	});
});
