import { describe, expect, it } from "vitest";
import { detectCi } from "../../src/origin/ci-provider.ts";

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
