/**
 * A config file is parsed key by key (`parseConfigValue`), building only the schemas of the keys it has. That is
 * only sound if it accepts exactly what the whole strict schema accepts, gives the same values, and reports the
 * whole schema's problems.
 */
import { describe, expect, it } from "vitest";
import { type ConfigScope, parseConfigValue, schemaForScope } from "../../src/policy/config-schema.ts";
import { prng } from "./fixtures.ts";
import { randomAgents, randomConfig } from "./random-policy.ts";

const SCOPES: readonly ConfigScope[] = ["managed", "user", "project"];

function sameAsWholeSchema(scope: ConfigScope, raw: unknown): void {
	const whole = schemaForScope(scope).safeParse(raw);
	const byKey = parseConfigValue(scope, raw);
	expect(byKey.success).toBe(whole.success);
	if (whole.success && byKey.success) expect(byKey.data).toEqual(whole.data);
	if (!whole.success && !byKey.success) expect(byKey.error.issues).toEqual(whole.error.issues);
}

describe("parsing a config value key by key", () => {
	it("every top-level key of every scope is optional, so a key left out needs no check", () => {
		for (const scope of SCOPES) {
			const whole = schemaForScope(scope);
			for (const [key, schema] of Object.entries(whole._zod.def.shape)) {
				expect({ scope, key, optin: schema._zod.optin }).toEqual({ scope, key, optin: "optional" });
			}
			expect(whole.safeParse({}).success).toBe(true);
			// A check on the whole object (a refinement across keys) would never run key by key.
			expect((whole._zod.def.checks ?? []).map((check) => check._zod.def.check)).toEqual(["meta"]);
		}
	});

	it("accepts, rejects and returns exactly what the whole schema does, for 600 seeded configs", () => {
		for (let seed = 1; seed <= 300; seed++) {
			const rng = prng(seed);
			for (const scope of ["user", "project"] as const) {
				const config = { ...randomConfig(rng, scope), agents: randomAgents(rng) };
				sameAsWholeSchema(scope, config);
			}
		}
	});

	it("rejects what the whole schema rejects, with its problems: unknown keys, wrong values, keys of another scope", () => {
		const cases: [ConfigScope, unknown][] = [
			["user", { sandbox: { enabled: false }, sandboxx: true }],
			["user", { rules: [{ surface: "command", pattern: "", action: "allow" }] }],
			["user", { agents: { reviewer: { tiers: { write: "auto" } } } }],
			["project", { authorizerChain: ["fixture-allow"] }],
			["project", { sandbox: { exclude: ["git commit *"] } }],
			["managed", { defaultMode: "plan" }],
			["user", { allowedModes: ["default"] }],
			["user", { dialogTimeoutSeconds: 0 }],
			["user", null],
			["user", []],
			["user", "rules"],
			["user", JSON.parse('{"__proto__": {"rules": []}, "sandbox": {}}')],
			["user", { constructor: {}, toString: "x" }],
			// zod reads a declared key wherever `in` finds it, and calls every `for…in` key unknown or parses it.
			["user", Object.create({ rules: "not a list" })],
			["user", Object.create({ sandboxx: true })],
			["user", Object.defineProperty({}, "rules", { value: "not a list", enumerable: false })],
		];
		for (const [scope, raw] of cases) {
			expect(parseConfigValue(scope, raw).success).toBe(false);
			sameAsWholeSchema(scope, raw);
		}
	});

	it("takes the values of a parsed file as the whole schema does: objects without a prototype, undefined values", () => {
		const bare = Object.assign(Object.create(null), {
			sandbox: Object.assign(Object.create(null), { enabled: false }),
			rules: [Object.assign(Object.create(null), { surface: "tool", pattern: "read", action: "allow" })],
			unanswered: undefined,
		});
		expect(parseConfigValue("user", bare).success).toBe(true);
		sameAsWholeSchema("user", bare);
		const bareUnknown = Object.assign(Object.create(null), { ["__proto__"]: {}, sandbox: {} });
		expect(parseConfigValue("user", bareUnknown).success).toBe(false);
		sameAsWholeSchema("user", bareUnknown);
	});
});
