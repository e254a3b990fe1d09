import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { node22Binary } from "../harness/paths.ts";

const PROBE = fileURLToPath(new URL("../fixtures/wasm-tiers-probe.ts", import.meta.url));

function probe(...flags: readonly string[]): unknown {
	const run = spawnSync(node22Binary(), ["--allow-natives-syntax", ...flags, PROBE], {
		encoding: "utf8",
		timeout: 30_000,
		env: { ...process.env, NODE_OPTIONS: "" },
	});
	expect(run.status, run.stderr).toBe(0);
	return JSON.parse(run.stdout);
}

describe("compiledWithBaselineOnly (adr/0028)", () => {
	it("keeps our module at Liftoff, and with it every wasm module compiled later in the process", () => {
		// Clearing --liftoff-only leaves tier-up off: that is what keeps our lazily compiled functions unoptimized.
		expect(probe()).toEqual({ oursOptimized: false, laterOptimized: false });
	});

	it("leaves a process whose owner chose wasm flags to them", () => {
		expect(probe("--wasm-dynamic-tiering")).toEqual({ oursOptimized: true, laterOptimized: true });
	});
});
