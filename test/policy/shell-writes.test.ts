/**
 * Path rules and shell writes, with the real bash classifier and the real policy: a command whose every effect
 * is a file it names is allowed (or denied) by the path rules that allow (or deny) the write tool; a command with
 * any effect beyond its known paths still asks, whatever path rule there is.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { describeAskWhy } from "../../src/gate/basis-source.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import { bashParser, classifyBash } from "../classify/classify-fixture.ts";
import { CWD, ctx, policyFromConfig } from "./fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const SRC_WRITES = policyFromConfig({ rules: [{ surface: "write", pattern: "src/**", action: "allow" }] });

function modeOf(command: string, policy: EffectivePolicy = SRC_WRITES): string {
	return decide(classifyBash(bash, command, { cwd: CWD }), policy, ctx()).mode;
}

describe("a write path rule and the shell", () => {
	it.each([
		"touch src/x.ts",
		"echo hi > src/y.ts",
		"printf '%s\\n' a >> src/log.txt",
		"mkdir -p src/new/dir",
		"cp README.md src/copy.md",
		"mv src/a.ts src/b.ts",
		"cat a.txt | tee src/t.txt",
		"sed -i 's/a/b/' src/z.ts",
		"sed -i.bak -E -e 's|a+|b|g' -e 's/c/d/2' src/z.ts src/w.ts",
		"cd src && touch x.ts",
		"touch src/a.ts && echo done",
		"{ echo a; echo b; } > src/group.txt",
	])("allows `%s`: every effect is a write under src/", (command) => {
		expect(modeOf(command)).toBe("auto");
	});

	it.each([
		["touch other.ts", "a write outside the rule"],
		["touch src/a.ts other.ts", "one of its writes outside the rule"],
		["echo hi > src/../other.ts", "a path that leaves src/"],
		["mv other.ts src/b.ts", "moving a file from outside the rule (its old place is written too)"],
		["touch $F", "a path known only at run time"],
		["touch src/$F", "a path known only at run time"],
		["sed -i -e 's/a/b/w out.txt' src/z.ts", "a sed script that writes another file"],
		["sed -i 's/a/b/e' src/z.ts", "a sed script that runs its result"],
		["sed -i '1d' src/z.ts", "a sed script that is not a plain substitution"],
		["sed -i -f script.sed src/z.ts", "a sed script from a file"],
		["sed -i 's/a/b/;e rm -rf x' src/z.ts", "a sed script with a second command"],
		["truncate -s 0 src/big.log", "a command the table counts as destructive"],
		["cp -b --suffix=/../../x a.txt src/b.txt", "a backup whose name is not among the paths"],
		["mv -S .orig src/a.ts src/b.ts", "a backup whose name is not among the paths"],
		["echo $(touch outside.txt) > src/a.txt", "a command inside a substitution"],
		["git checkout src/x.ts", "a command with effects beyond its arguments"],
		["npm install > src/log.txt", "a command with effects beyond its paths"],
		["FOO=1 touch src/x.ts", "variables set for the command"],
		["env touch src/x.ts", "a wrapper"],
		["xargs touch < list.txt", "operands arriving at run time"],
		["cp src/a.ts ../elsewhere.ts", "a write outside the project"],
		["install -m 755 script src/bin", "a command not known to have only these effects"],
	])("still asks for `%s`: %s", (command) => {
		expect(modeOf(command)).toBe("ask");
	});

	it("a deny path rule denies the same writes by any command", () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "write", pattern: "**", action: "allow" },
				{ surface: "write", pattern: "**/.env", action: "deny" },
			],
		});
		for (const command of ["echo KEY=1 > .env", "touch src/.env", "cp x .env", "tee -a config/.env"]) {
			expect(modeOf(command, policy), command).toBe("deny");
		}
		expect(modeOf("echo KEY=1 > .env.example", policy)).toBe("auto");
	});

	it("an ask path rule still asks for a covered write", () => {
		const policy = policyFromConfig({
			rules: [
				{ surface: "write", pattern: "src/**", action: "allow" },
				{ surface: "write", pattern: "src/generated/**", action: "ask" },
			],
		});
		expect(modeOf("touch src/generated/x.ts", policy)).toBe("ask");
		expect(modeOf("touch src/x.ts", policy)).toBe("auto");
	});

	it("with reads tightened to ask, a copy's read needs a rule too", () => {
		const policy = policyFromConfig({
			rules: [{ surface: "write", pattern: "src/**", action: "allow" }],
			tiers: { read: "ask" },
		});
		expect(modeOf("cp README.md src/copy.md", policy)).toBe("ask");
		expect(modeOf("touch src/x.ts", policy)).toBe("auto");
	});

	it("why it asks names the part that asked", () => {
		const decision = decide(
			classifyBash(bash, "ls && touch other.ts && echo hi > src/ok.ts", { cwd: CWD }),
			SRC_WRITES,
			ctx(),
		);
		if (decision.mode !== "ask") throw new Error(`expected an ask, got ${decision.mode}`);
		expect(describeAskWhy(decision)).toBe("the write tier asks (built-in default) for: touch other.ts");
		const redirect = decide(classifyBash(bash, "echo hi > other.ts", { cwd: CWD }), SRC_WRITES, ctx());
		if (redirect.mode !== "ask") throw new Error(`expected an ask, got ${redirect.mode}`);
		expect(describeAskWhy(redirect)).toBe(
			"the write tier asks (built-in default) for: echo hi (writes other.ts)",
		);
	});
});
