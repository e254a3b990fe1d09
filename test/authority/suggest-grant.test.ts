import { beforeAll, describe, expect, it } from "vitest";
import { suggestGrants } from "../../src/authority/suggest-grant.ts";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { compileGrant, grantCoversPart, type SessionGrant } from "../../src/policy/grant-coverage.ts";
import { bashParser, CWD, classifyBash, depsFor, HOME } from "../classify/classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const context = { cwd: CWD, homeDir: HOME };

function classify(tool: string, input: Record<string, unknown>): ClassifiedAction {
	return classifyAction({ tool, input, cwd: CWD }, depsFor(bash));
}

function suggestFor(action: ClassifiedAction) {
	return suggestGrants(
		action.tool,
		action.parts.map((part) => ({ part, tier: part.tier })),
	);
}

function asGrant(s: Pick<SessionGrant, "surface" | "pattern" | "limit">): SessionGrant {
	return {
		id: `g-${s.pattern}`,
		surface: s.surface,
		pattern: s.pattern,
		scope: "session",
		limit: s.limit,
		grantedAt: "2025-01-01T00:00:00Z",
	};
}

/** Would granting every suggestion let this action through without asking? (the real grant matcher) */
function coveredBy(suggested: ReturnType<typeof suggestGrants>, action: ClassifiedAction): boolean {
	const grants = suggested.map((s) => compileGrant(asGrant(s), context));
	return action.parts.every((part) => grants.some((g) => grantCoversPart(g, action, part)));
}

describe("suggestGrants: commands", () => {
	it.each([
		["git checkout main", "git checkout *"],
		["git checkout -b feature", "git checkout *"],
		["npm install left-pad", "npm install *"],
		["gh pr view 12", "gh pr view *"],
		["ls -la", "ls *"],
		["FOO=1 git checkout main", "git checkout *"],
		["/usr/bin/git checkout x", "/usr/bin/git checkout *"],
		["echo 'x*y'", "echo *"],
	])("generalizes `%s` to `%s`", (command, pattern) => {
		expect(suggestFor(classifyBash(bash, command))).toMatchObject([{ surface: "command", pattern }]);
	});

	it.each([
		"node scripts/gen.js",
		"python3 tools/x.py --fast",
		"pytest tests/",
		"./scripts/build.sh release",
		"npm run build",
		"go run ./cmd/gen",
		"docker run --rm alpine echo hi",
		"npx prettier --write .",
	])("keeps the program run `%s` exact: its words name the code it runs", (command) => {
		expect(suggestFor(classifyBash(bash, command)).map((s) => s.pattern)).toContain(command);
		expect(suggestFor(classifyBash(bash, command)).some((s) => s.pattern.endsWith("*"))).toBe(false);
	});

	it.each(["git status", "gh pr list", "make"])(
		"keeps `%s` exact: nothing to widen past the subcommand",
		(command) => {
			expect(suggestFor(classifyBash(bash, command))).toMatchObject([
				{ surface: "command", pattern: command },
			]);
		},
	);

	it.each(["rm -rf build", "git push --force", "sudo apt-get install foo"])(
		"offers the exact text for destructive or privileged `%s`",
		(command) => {
			const action = classifyBash(bash, command);
			expect(["destructive", "privileged"]).toContain(action.tier);
			const suggested = suggestFor(action);
			expect(suggested.map((s) => s.pattern)).toContain(command);
			expect(suggested.every((s) => !s.pattern.endsWith(" *"))).toBe(true);
		},
	);

	it("keeps a command exact when an option comes before its subcommand (`git *` would cover every git command)", () => {
		const suggested = suggestFor(classifyBash(bash, "git -C repo status"));
		expect(suggested).toMatchObject([{ surface: "command", pattern: "git -C repo status" }]);
		const push = classifyBash(bash, "git push --force origin main");
		expect(coveredBy(suggested, push)).toBe(false);
	});

	it("offers nothing for a command whose text contains `*`: no pattern can name it exactly", () => {
		for (const command of ["rm -rf *.o", "rm -rf 'a*b'", "git che*kout main", "ls -la *"]) {
			const action = classifyBash(bash, command);
			expect(suggestFor(action)).toEqual([]);
		}
		// What the exact text would have granted: `rm -rf *.o` as a pattern also covers deleting the root.
		const wouldBe = compileGrant(
			asGrant({ surface: "command", pattern: "rm -rf *.o", limit: { tier: "privileged", outsideCwd: true } }),
			context,
		);
		const wider = classifyBash(bash, "rm -rf / x.o");
		expect(wider.parts.every((part) => grantCoversPart(wouldBe, wider, part))).toBe(true);
	});

	it("de-duplicates the same pattern from several parts", () => {
		const action = classifyBash(bash, "git checkout a && git checkout b; git checkout c");
		expect(action.parts).toHaveLength(3);
		expect(suggestFor(action)).toMatchObject([{ surface: "command", pattern: "git checkout *" }]);
	});

	it("offers one suggestion per distinct part of a chain", () => {
		const action = classifyBash(bash, "npm install x && git checkout main && rm -rf dist");
		expect(suggestFor(action)).toMatchObject([
			{ surface: "command", pattern: "npm install *" },
			{ surface: "command", pattern: "git checkout *" },
			{ surface: "command", pattern: "rm -rf dist" },
		]);
	});
});

describe("suggestGrants: paths and tools", () => {
	it("suggests the parent directory for a path, per access", () => {
		expect(suggestFor(classify("write", { path: "src/a.ts", content: "x" }))).toMatchObject([
			{ surface: "write", pattern: `${CWD}/src/*` },
		]);
		const edit = classify("edit", { path: "docs/readme.md", edits: [{ oldText: "a", newText: "b" }] });
		expect(suggestFor(edit)).toMatchObject([{ surface: "write", pattern: `${CWD}/docs/*` }]);
	});

	it("suggests `/*` (not `//*`) for a path directly under the root, and `/` for the root itself", () => {
		expect(suggestFor(classify("read", { path: "/etc" }))).toMatchObject([
			{ surface: "read", pattern: "/*" },
		]);
		expect(suggestFor(classify("read", { path: "/" }))).toMatchObject([{ surface: "read", pattern: "/" }]);
	});

	it("escapes glob characters in a directory name so they stay literal", () => {
		const action = classify("write", { path: "/work/[ab]/f.txt", content: "x" });
		const suggested = suggestFor(action);
		expect(suggested).toMatchObject([{ surface: "write", pattern: "/work/\\[ab\\]/*" }]);
		expect(coveredBy(suggested, action)).toBe(true);
		// Unescaped, `[ab]` would be a character class and grant `/work/a/*` too.
		expect(coveredBy(suggested, classify("write", { path: "/work/a/f.txt", content: "x" }))).toBe(false);
		for (const dir of ["/work/{x,y}", "/work/*", "/work/a?b", "/work/!(n)", "/work/+@(p)"]) {
			const weird = classify("write", { path: `${dir}/f.txt`, content: "x" });
			expect(coveredBy(suggestFor(weird), weird)).toBe(true);
			expect(
				coveredBy(suggestFor(weird), classify("write", { path: "/work/other/f.txt", content: "x" })),
			).toBe(false);
		}
	});

	it("suggests the tool name for a tool without commands or paths", () => {
		expect(suggestFor(classify("mcp_search", { query: "x" }))).toMatchObject([
			{ surface: "tool", pattern: "mcp_search" },
		]);
	});
});

describe("suggestGrants: every suggestion covers the action it was made for", () => {
	const commands = [
		"git checkout main",
		"git -C repo status",
		"npm install left-pad",
		"npm i -g pnpm",
		"gh pr view 12 --web",
		"ls -la src",
		"curl https://example.com",
		"docker run --rm alpine echo hi",
		"kubectl get pods -n prod",
		"rm -rf build",
		"sudo systemctl restart nginx",
		"echo hi > out.txt",
		"cat README.md | grep x",
		"cd sub && make test",
		"python3 -c 'print(1)'",
	];

	it.each(commands)("granting the suggestions for `%s` lets it through next time", (command) => {
		const action = classifyBash(bash, command);
		const suggested = suggestFor(action);
		expect(suggested.length).toBeGreaterThan(0);
		expect(coveredBy(suggested, action)).toBe(true);
	});

	it.each([
		["write", { path: "src/a.ts", content: "x" }],
		["edit", { path: "/tmp/x/y.md", edits: [{ oldText: "a", newText: "b" }] }],
		["read", { path: "/" }],
		["read", { path: "~/notes.txt" }],
		["unknown_tool", { a: 1 }],
	])("granting the suggestions for %s %j lets it through next time", (tool, input) => {
		const action = classify(tool, input);
		expect(coveredBy(suggestFor(action), action)).toBe(true);
	});
});

describe("suggestGrants: limits", () => {
	it("records the tier of the part and whether it left the cwd", () => {
		const inside = suggestFor(classifyBash(bash, "git checkout main"));
		expect(inside).toEqual([
			{ surface: "command", pattern: "git checkout *", limit: { tier: "write", outsideCwd: false } },
		]);
		const outside = suggestFor(classify("write", { path: "/tmp/elsewhere/a.txt", content: "x" }));
		expect(outside[0]?.limit).toEqual({ tier: "write", outsideCwd: true });
	});
});
