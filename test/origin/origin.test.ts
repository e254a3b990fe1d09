import { describe, expect, it } from "vitest";
import { detectCi, originLabel, resolveOrigin } from "../../src/origin/origin.ts";

const NO_ENV = {};

describe("resolveOrigin: most specific first", () => {
	it("a subagent is a subagent, even in CI and even with a UI", () => {
		const origin = resolveOrigin({
			subagent: { name: "worker", path: ["root", "planner"] },
			env: { GITHUB_ACTIONS: "true", CI: "true" },
			hasUI: true,
		});
		expect(origin).toEqual({
			kind: "subagent",
			name: "worker",
			depth: 2,
			path: ["root", "planner", "worker"],
		});
	});

	it("CI comes before the UI check", () => {
		expect(resolveOrigin({ subagent: null, env: { GITLAB_CI: "true" }, hasUI: true })).toEqual({
			kind: "ci",
			provider: "gitlab-ci",
		});
		expect(resolveOrigin({ subagent: null, env: { CI: "1" }, hasUI: false })).toEqual({
			kind: "ci",
			provider: null,
		});
	});

	it("a UI means a human; no UI means headless", () => {
		expect(resolveOrigin({ subagent: null, env: NO_ENV, hasUI: true })).toEqual({ kind: "human" });
		expect(resolveOrigin({ subagent: null, env: NO_ENV, hasUI: false })).toEqual({ kind: "headless" });
		expect(resolveOrigin({ subagent: null, env: { CI: "false" }, hasUI: false })).toEqual({
			kind: "headless",
		});
	});
});

describe("resolveOrigin: subagent labels", () => {
	it("does not repeat the name when the path already ends with it", () => {
		const origin = resolveOrigin({
			subagent: { name: "worker", path: ["root", "planner", "worker"] },
			env: NO_ENV,
			hasUI: false,
		});
		expect(origin).toEqual({
			kind: "subagent",
			name: "worker",
			depth: 2,
			path: ["root", "planner", "worker"],
		});
		expect(originLabel(origin)).toBe("subagent root ← planner ← worker");
	});

	it("a direct child with no path has depth 1", () => {
		expect(resolveOrigin({ subagent: { name: "scout", path: [] }, env: NO_ENV, hasUI: false })).toEqual({
			kind: "subagent",
			name: "scout",
			depth: 1,
			path: ["scout"],
		});
		expect(
			resolveOrigin({ subagent: { name: "scout", path: ["root"] }, env: NO_ENV, hasUI: false }),
		).toMatchObject({
			depth: 1,
			path: ["root", "scout"],
		});
	});

	it("sanitizes the name and every path label; empty ones become `unnamed`", () => {
		const origin = resolveOrigin({
			subagent: { name: "wor\u202eker\u200b", path: ["ro\u0000ot", "\u200b\u200b", "plan\nner"] },
			env: NO_ENV,
			hasUI: false,
		});
		expect(origin).toEqual({
			kind: "subagent",
			name: "worker",
			depth: 3,
			path: ["root", "unnamed", "planner", "worker"],
		});
		const blank = resolveOrigin({ subagent: { name: "\u200b", path: [] }, env: NO_ENV, hasUI: false });
		expect(blank).toMatchObject({ name: "unnamed", path: ["unnamed"] });
	});

	it("compares the name with the path after both are sanitized", () => {
		const origin = resolveOrigin({
			subagent: { name: "worker\u200b", path: ["root", "wor\u202eker"] },
			env: NO_ENV,
			hasUI: false,
		});
		expect(origin).toMatchObject({ name: "worker", path: ["root", "worker"], depth: 1 });
	});

	it("keeps at most 32 path labels (the nearest ones, this agent last) but counts every hop in depth", () => {
		const long = Array.from({ length: 100 }, (_, i) => `agent-${i}`);
		const origin = resolveOrigin({ subagent: { name: "leaf", path: long }, env: NO_ENV, hasUI: false });
		if (origin.kind !== "subagent") throw new Error("expected a subagent origin");
		expect(origin.path).toHaveLength(32);
		expect(origin.path.at(-1)).toBe("leaf");
		expect(origin.path.at(-2)).toBe("agent-99");
		expect(origin.depth).toBe(100);
		const ending = resolveOrigin({ subagent: { name: "agent-99", path: long }, env: NO_ENV, hasUI: false });
		expect(ending).toMatchObject({ depth: 99 });
		if (ending.kind === "subagent") expect(ending.path).toHaveLength(32);
	});

	it("caps each label at 256 bytes", () => {
		const origin = resolveOrigin({
			subagent: { name: "n".repeat(500), path: ["r".repeat(500)] },
			env: NO_ENV,
			hasUI: false,
		});
		if (origin.kind !== "subagent") throw new Error("expected a subagent origin");
		expect(origin.name).toHaveLength(256);
		expect(origin.path.every((label) => Buffer.byteLength(label) <= 256)).toBe(true);
	});
});

/** The variable each provider sets, with a value it really uses. */
const PROVIDERS: readonly (readonly [string, string, string])[] = [
	["GITHUB_ACTIONS", "true", "github-actions"],
	["GITLAB_CI", "true", "gitlab-ci"],
	["BUILDKITE", "true", "buildkite"],
	["CIRCLECI", "true", "circleci"],
	["JENKINS_URL", "https://jenkins.example.com/", "jenkins"],
	["TRAVIS", "true", "travis-ci"],
	["TF_BUILD", "True", "azure-pipelines"],
	["BITBUCKET_BUILD_NUMBER", "42", "bitbucket-pipelines"],
	["TEAMCITY_VERSION", "2024.03", "teamcity"],
	["DRONE", "true", "drone-ci"],
	["CODEBUILD_BUILD_ID", "proj:1f2e3d", "aws-codebuild"],
];

describe("detectCi", () => {
	it("knows all 11 providers", () => {
		expect(new Set(PROVIDERS.map(([, , provider]) => provider)).size).toBe(11);
	});

	it.each(PROVIDERS)("detects %s=%s as %s", (variable, value, provider) => {
		expect(detectCi({ [variable]: value })).toEqual({ ci: true, provider });
		// Providers also set CI=true; the specific provider still wins.
		expect(detectCi({ CI: "true", [variable]: value })).toEqual({ ci: true, provider });
	});

	it.each(["true", "1", "yes", "TRUE", " on "])("detects generic CI=%j with no provider", (value) => {
		expect(detectCi({ CI: value })).toEqual({ ci: true, provider: null });
	});

	it.each(["", "   ", "0", "false", "FALSE", "no", " No "])("treats CI=%j as not CI", (value) => {
		expect(detectCi({ CI: value })).toEqual({ ci: false });
	});

	it("ignores provider variables that are empty or false", () => {
		expect(detectCi({ GITHUB_ACTIONS: "" })).toEqual({ ci: false });
		expect(detectCi({ GITHUB_ACTIONS: "  " })).toEqual({ ci: false });
		expect(detectCi({ GITHUB_ACTIONS: "false", CI: "true" })).toEqual({ ci: true, provider: null });
	});

	it("is not CI with an empty environment or unrelated variables", () => {
		expect(detectCi({})).toEqual({ ci: false });
		expect(detectCi({ HOME: "/home/dev", TERM: "xterm", CIRCLE: "x", GITHUB_TOKEN: "t" })).toEqual({
			ci: false,
		});
	});

	it("takes the first provider in its fixed order when several are set", () => {
		expect(detectCi({ JENKINS_URL: "http://j", GITLAB_CI: "true" })).toEqual({
			ci: true,
			provider: "gitlab-ci",
		});
	});
});
