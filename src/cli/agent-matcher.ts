import { ORIGIN_KINDS, type OriginKind } from "../origin/origin.ts";
import { sanitizeLabel } from "../origin/sanitize-label.ts";
import { describeZodIssue, formatJsonPath } from "../policy/config-error.ts";
import { UserConfigSchema } from "../policy/config-schema.ts";
import { usageError } from "./cli-error.ts";

export interface AgentMatcher {
	readonly kind: OriginKind;
	readonly name?: string;
}

/**
 * Check a matcher the way the config loader will (the same zod schema), plus what the schema cannot know: a
 * name the gate could never see because origin labels are sanitized before they are matched.
 */
export function validateAgentMatcher(kind: string | undefined, name: string | undefined): AgentMatcher {
	if (kind === undefined) throw usageError(`--kind is required: one of ${ORIGIN_KINDS.join(", ")}`);
	if (!isOriginKind(kind)) {
		throw usageError(`--kind must be one of ${ORIGIN_KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
	}
	if (name !== undefined && (kind === "human" || kind === "headless")) {
		throw usageError(
			`--name is not allowed with --kind ${kind}: a ${kind} origin carries no name, so the entry could never match (names exist for subagent and ci)`,
		);
	}
	if (name !== undefined && name === "") {
		throw usageError(
			"--name must not be empty: an empty name can never match an origin (omit --name to match every name)",
		);
	}
	if (name !== undefined && sanitizeLabel(name) !== name) {
		throw usageError(
			"--name has leading or trailing blanks, or control, bidi or zero-width characters: origin names are cleaned of those before matching, so it could never match",
		);
	}
	const matcher: AgentMatcher = name === undefined ? { kind } : { kind, name };
	const parsed = UserConfigSchema().safeParse({ agentRules: { allow: [matcher] } });
	if (!parsed.success) {
		const raw = { agentRules: { allow: [matcher] } };
		const problems = parsed.error.issues.flatMap((issue) => describeZodIssue(issue, raw));
		const first = problems[0];
		const where = first ? formatJsonPath(first.path.slice(3)) : "";
		throw usageError(
			`invalid matcher${where ? ` (${where})` : ""}: ${first?.problem ?? "rejected by the config schema"}`,
		);
	}
	return matcher;
}

function isOriginKind(value: string): value is OriginKind {
	return ORIGIN_KINDS.some((kind) => kind === value);
}
