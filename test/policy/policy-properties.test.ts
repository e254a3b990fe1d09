/**
 * Properties over seeded random policies and actions:
 * - a trusted project file never makes any decision more permissive than the user file alone;
 * - an `agents` section never makes any decision more permissive, and changes none for an origin it does not name;
 * - the order of keys and of rule lists in a config never changes a decision.
 */
import { describe, expect, it } from "vitest";
import { type Decision, decide } from "../../src/policy/decide.ts";
import { modeRank } from "../../src/vocabulary/tier.ts";
import { policyFrom, prng } from "./fixtures.ts";
import {
	randomAction,
	randomAgentContext,
	randomAgents,
	randomConfig,
	randomContext,
} from "./random-policy.ts";

type Rng = ReturnType<typeof prng>;

describe("a project file only tightens", () => {
	it("decide(U ∪ P) is never more permissive than decide(U) (300 seeded policy pairs × 8 actions)", () => {
		let tightened = 0;
		for (let seed = 1; seed <= 300; seed++) {
			const rng = prng(seed);
			const userText = JSON.stringify(randomConfig(rng, "user"));
			const projectText = JSON.stringify(randomConfig(rng, "project"));
			const alone = policyFrom(userText);
			const merged = policyFrom(userText, projectText);
			expect(alone.configErrors, `seed ${seed}: generated user config must be valid`).toEqual([]);
			expect(merged.configErrors, `seed ${seed}: generated project config must be valid`).toEqual([]);
			for (let i = 0; i < 8; i++) {
				const action = randomAction(rng);
				const context = randomContext(rng);
				const before = decide(action, alone, context).mode;
				const after = decide(action, merged, context).mode;
				expect(
					modeRank(after),
					`seed ${seed} action ${i}: ${before} → ${after}\nU=${userText}\nP=${projectText}\n${JSON.stringify(action.parts)}`,
				).toBeGreaterThanOrEqual(modeRank(before));
				if (modeRank(after) > modeRank(before)) tightened++;
			}
		}
		// The generator must actually exercise tightening, or the property says nothing.
		expect(tightened).toBeGreaterThan(100);
	});

	it("an invalid project file is never more permissive either: everything denies", () => {
		for (let seed = 1; seed <= 50; seed++) {
			const rng = prng(seed);
			const userText = JSON.stringify(randomConfig(rng, "user"));
			const merged = policyFrom(userText, `{ "rules": [ { "surface": "tool" } ] }`);
			expect(decide(randomAction(rng), merged, randomContext(rng)).mode).toBe("deny");
		}
	});
});

/** How much a decision lets through: the mode, then for an ask whether a grant or a link could answer it. */
function permissiveness(decision: Decision): number {
	if (decision.mode !== "ask") return decision.mode === "auto" ? 3 : 0;
	return decision.humanOnly ? 1 : decision.grantable ? 2 : 1.5;
}

describe("an agents section only tightens", () => {
	it("decide(U + agents) is never more permissive than decide(U), and equal where no name applies (400 seeds × 8)", () => {
		let tightened = 0;
		let validSections = 0;
		for (let seed = 1; seed <= 400; seed++) {
			const rng = prng(20_000 + seed);
			const user = randomConfig(rng, "user");
			const userText = JSON.stringify(user);
			const limitedText = JSON.stringify({ ...user, agents: randomAgents(rng) });
			const alone = policyFrom(userText);
			const limited = policyFrom(limitedText);
			if (limited.configErrors.length === 0) validSections++;
			for (let i = 0; i < 8; i++) {
				const action = randomAction(rng);
				const context = randomAgentContext(rng);
				const before = decide(action, alone, context);
				const after = decide(action, limited, context);
				const why = `seed ${seed} action ${i}: ${before.mode} → ${after.mode}\n${limitedText}\n${JSON.stringify(context)}\n${JSON.stringify(action.parts)}`;
				expect(permissiveness(after), why).toBeLessThanOrEqual(permissiveness(before));
				if (permissiveness(after) < permissiveness(before)) tightened++;
				const named =
					context.origin.kind === "subagent" && context.origin.path.some((name) => limited.agents.has(name));
				if (!named && limited.configErrors.length === 0) {
					expect(after, why).toEqual(before);
				}
			}
		}
		// The generators must exercise both valid sections and real tightening, or the property says nothing.
		expect(validSections).toBeGreaterThan(200);
		expect(tightened).toBeGreaterThan(100);
	});
});

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
	const out = [...items];
	for (let i = out.length - 1; i > 0; i--) {
		const j = rng.int(i + 1);
		const a = out[i] as T;
		out[i] = out[j] as T;
		out[j] = a;
	}
	return out;
}

/** Same config, other order: every object's keys reordered, and the rule-like lists shuffled. */
function reorder(rng: Rng, value: unknown, key = ""): unknown {
	if (Array.isArray(value)) {
		const items = value.map((v) => reorder(rng, v));
		return ["rules", "commandTiers", "allow", "deny"].includes(key) ? shuffled(rng, items) : items;
	}
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(shuffled(rng, Object.entries(value)).map(([k, v]) => [k, reorder(rng, v, k)]));
	}
	return value;
}

function signature(decision: Decision): string {
	const { basis } = decision;
	const part = "part" in basis ? basis.part.index : "-";
	const grantable = decision.mode === "ask" ? String(decision.grantable) : "-";
	return `${decision.mode} ${basis.kind} part=${part} grantable=${grantable} notes=${decision.notes.length}`;
}

describe("order never matters", () => {
	it("reordering config keys and rule lists leaves every decision unchanged (150 seeded configs × 8 actions)", () => {
		for (let seed = 1; seed <= 150; seed++) {
			const rng = prng(10_000 + seed);
			const user = randomConfig(rng, "user");
			const project = randomConfig(rng, "project");
			const original = policyFrom(JSON.stringify(user), JSON.stringify(project));
			const reordered = policyFrom(JSON.stringify(reorder(rng, user)), JSON.stringify(reorder(rng, project)));
			for (let i = 0; i < 8; i++) {
				const action = randomAction(rng);
				const context = randomContext(rng);
				expect(signature(decide(action, reordered, context)), `seed ${seed} action ${i}`).toBe(
					signature(decide(action, original, context)),
				);
			}
		}
	});
});
