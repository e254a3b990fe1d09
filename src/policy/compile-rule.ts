import { compileWildcard } from "../vocabulary/wildcard-pattern.ts";
import type { ConfigRule } from "./config-schema.ts";
import { compilePathPattern } from "./path-pattern.ts";
import type { PolicyRule, RuleOrigin } from "./policy-rule.ts";

/** Compiles one config rule. Throws only if picomatch rejects the glob; the loader turns that into a config error. */
export function compileRule(rule: ConfigRule, origin: RuleOrigin, seq: number, homeDir: string): PolicyRule {
	const ref = {
		surface: rule.surface,
		pattern: rule.pattern,
		action: rule.action,
		reason: rule.reason ?? null,
		origin,
	};
	if (rule.surface === "tool" || rule.surface === "command") {
		return { kind: "wildcard", surface: rule.surface, ref, seq, matcher: compileWildcard(rule.pattern) };
	}
	return {
		kind: "path",
		surface: rule.surface,
		ref,
		seq,
		matcher: compilePathPattern(rule.pattern, homeDir),
	};
}
