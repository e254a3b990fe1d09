/**
 * `pi -ne -e ./x.ts -p hi` through bash (adr/0011), from the attacker's side with real pi: the model plants
 * `x.ts` (an extension that leaves a file behind when pi loads it) and starts pi on it. The user's config is the
 * documented one that made this silent and unsandboxed: an allow rule for `pi *`, `sandbox.exclude: ["pi *"]`,
 * and `trusted` mode. The call now asks a human alone; denied, x.ts never loads.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, REPO_ROOT } from "../harness/paths.ts";
import { startRpc } from "../harness/rpc-session.ts";
import { bash, gateSandbox, scriptOf, stopRpcAndCleanUp, writeUserConfig } from "./gate-support.ts";
import { auditNow } from "./hub-support.ts";

afterEach(stopRpcAndCleanUp);

const PI_CLI = path.join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/cli.js");

describe("pi started through bash", () => {
	it("an allow rule, sandbox.exclude and trusted mode: `pi -ne -e ./x.ts -p hi` asks a human, and Deny keeps x.ts from loading", async () => {
		const sb = await gateSandbox();
		const marker = sb.workPath("x-loaded.txt");
		await sb.writeWorkFile(
			"x.ts",
			`import { writeFileSync } from "node:fs";\nexport default function x() { writeFileSync(${JSON.stringify(marker)}, "loaded"); }\n`,
		);
		// A real `pi` on PATH, outside the project, as an install puts one.
		const bin = path.join(sb.root, "bin");
		mkdirSync(bin, { recursive: true });
		writeFileSync(
			path.join(bin, "pi"),
			`#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(PI_CLI)} "$@"\n`,
		);
		chmodSync(path.join(bin, "pi"), 0o755);
		await writeUserConfig(sb, {
			rules: [{ surface: "command", pattern: "pi *", action: "allow" }],
			sandbox: { exclude: ["pi *"] },
		});
		await writeScript(sb, scriptOf([bash("pi -ne -e ./x.ts -p hi")]));
		const rpc = await startRpc({
			sandbox: sb,
			extensions: [EXTENSION_ENTRY],
			args: ["--permission-mode", "trusted"],
			env: { PATH: `${bin}:${path.dirname(process.execPath)}:${sb.env().PATH ?? "/usr/bin:/bin"}` },
			dialog: pickOption("Deny"),
		});

		const run = await rpc.prompt("start pi");

		expect(run.dialogs).toHaveLength(1);
		expect(run.dialogs[0]?.request.title).toContain("starts pi");
		expect(existsSync(marker)).toBe(false);
		expect(auditNow(sb).find((e) => e.tool === "bash")).toMatchObject({
			outcome: "deny",
			tier: "privileged",
		});
	});
});
