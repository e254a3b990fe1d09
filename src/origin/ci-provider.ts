/**
 * CI detection from the variables providers set. The tag on the right is ours and stable; the variable on the
 * left is the provider's. Caller-claimed like every origin signal.
 */
const PROVIDERS: readonly { readonly variable: string; readonly provider: string }[] = [
	{ variable: "GITHUB_ACTIONS", provider: "github-actions" },
	{ variable: "GITLAB_CI", provider: "gitlab-ci" },
	{ variable: "BUILDKITE", provider: "buildkite" },
	{ variable: "CIRCLECI", provider: "circleci" },
	{ variable: "JENKINS_URL", provider: "jenkins" },
	{ variable: "TRAVIS", provider: "travis-ci" },
	{ variable: "TF_BUILD", provider: "azure-pipelines" },
	{ variable: "BITBUCKET_BUILD_NUMBER", provider: "bitbucket-pipelines" },
	{ variable: "TEAMCITY_VERSION", provider: "teamcity" },
	{ variable: "DRONE", provider: "drone-ci" },
	{ variable: "CODEBUILD_BUILD_ID", provider: "aws-codebuild" },
];

export type CiDetection = { readonly ci: false } | { readonly ci: true; readonly provider: string | null };

export function detectCi(env: Readonly<Record<string, string | undefined>>): CiDetection {
	for (const { variable, provider } of PROVIDERS) {
		if (isSet(env[variable])) return { ci: true, provider };
	}
	if (isTruthy(env.CI)) return { ci: true, provider: null };
	return { ci: false };
}

function isSet(value: string | undefined): boolean {
	return value !== undefined && value.trim() !== "" && value.trim().toLowerCase() !== "false";
}

function isTruthy(value: string | undefined): boolean {
	if (value === undefined) return false;
	const v = value.trim().toLowerCase();
	return v !== "" && v !== "0" && v !== "false" && v !== "no";
}
