/** The index must find exactly what a scan over every rule finds (it only skips rules that cannot match). */
import { describe, expect, it } from "vitest";
import type { RuleSurface } from "../../src/policy/config-schema.ts";
import { pathFormMatches } from "../../src/policy/path-pattern.ts";
import {
	buildRuleIndex,
	compileRule,
	earliestPathRule,
	earliestWildcardRule,
	type PolicyRule,
} from "../../src/policy/policy-rule.ts";
import { CWD, HOME, prng } from "./fixtures.ts";

const COMMAND_PATTERNS = [
	"git *",
	"git push *",
	"rm *",
	"rm -rf /",
	"*",
	"* --force",
	"npm run *",
	"ls",
	"g*",
	"cat *.env",
];
const COMMANDS = [
	"git",
	"git push",
	"git push origin main",
	"rm -rf /",
	"rm x",
	"ls",
	"ls -la",
	"npm run build",
	"cat a.env",
	"x --force",
	"gcc a.c",
];
const PATH_PATTERNS = [
	"src/**",
	"**/.env",
	".env",
	"/etc/**",
	"/home/dev/project/src/*.ts",
	"~/.ssh/**",
	"**",
	"/**",
	"{src,test}/**",
	"/home/dev/**",
	"src/deep/er/path/*.ts",
];
const PATHS = [
	`${CWD}/src/a.ts`,
	`${CWD}/.env`,
	`${CWD}/a/b/.env`,
	"/etc/passwd",
	`${HOME}/.ssh/id_rsa`,
	"/srv/app/.env",
	`${CWD}/test/x.ts`,
	`${CWD}/src/deep/er/path/f.ts`,
	CWD,
	"/",
];

function randomRules(seed: number): PolicyRule[] {
	const rng = prng(seed);
	const rules: PolicyRule[] = [];
	for (let i = 0; i < 40; i++) {
		const surface = rng.pick<RuleSurface>(["tool", "command", "path", "read"]);
		const pattern =
			surface === "path" || surface === "read" ? rng.pick(PATH_PATTERNS) : rng.pick(COMMAND_PATTERNS);
		const origin = { file: "test", jsonPath: `rules[${i}]`, line: i + 1 };
		rules.push(compileRule({ surface, pattern, action: "deny" }, origin, i, HOME, []));
	}
	return rules;
}

describe("rule index", () => {
	it("finds the same earliest rule as a full scan (seeded, 50 rule sets)", () => {
		for (let seed = 1; seed <= 50; seed++) {
			const rules = randomRules(seed);
			const index = buildRuleIndex(rules).deny;
			for (const text of COMMANDS) {
				const scanned = rules.find(
					(r) => r.kind === "wildcard" && r.surface === "command" && r.matcher.test(text),
				);
				expect(earliestWildcardRule(index.command, text)?.seq, `seed ${seed} ${text}`).toBe(scanned?.seq);
			}
			for (const path of PATHS) {
				for (const scope of ["inside", "outside"] as const) {
					const scanned = rules.find(
						(r) => r.kind === "path" && pathFormMatches(r.matcher, path, CWD, scope),
					);
					const lookup = { accept: () => true, scopeOf: () => scope };
					const found = earliestPathRule(index.path, path, CWD, lookup, null);
					expect(found?.seq, `seed ${seed} ${path} ${scope}`).toBe(scanned?.seq);
				}
			}
		}
	});
});
