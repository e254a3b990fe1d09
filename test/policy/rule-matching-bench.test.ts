import { describe, expect, it } from "vitest";
import { runRuleMatchingBench } from "../../bench/rule-matching.ts";

describe("rule matching bench", () => {
	it("runs and shows the compiled, indexed matcher far ahead of building matchers per call", () => {
		const result = runRuleMatchingBench({ iterations: 400 });
		for (const value of Object.values(result)) expect(Number.isFinite(value)).toBe(true);
		expect(result.compiledP99Us).toBeGreaterThanOrEqual(result.compiledMedianUs);
		expect(result.ratio).toBeGreaterThan(10);
	});
});
