/**
 * Which rule applies to one part of an action. Two questions with different answers on purpose:
 * - does a deny/ask rule MATCH the part? Any surface, any path, any spelling of a path or command;
 * - does an allow rule COVER the part? Its command text exactly, or every path it touches (for a part without a
 *   command, or a command whose only effects are its paths), in every form: a symlink whose target the allow
 *   does not name is not covered.
 */
import type { ActionPart, ClassifiedAction, PathTouch } from "../classify/action.ts";
import { strictCommandTexts } from "./command-texts.ts";
import type { PathMatchScope } from "./path-pattern.ts";
import type { PathRule, PathSurface, PolicyRule } from "./policy-rule.ts";
import {
	type ActionRuleIndex,
	earliestPathRule,
	earliestWildcardRule,
	type PathLookup,
} from "./rule-index.ts";

export function surfaceApplies(surface: PathSurface, touch: PathTouch): boolean {
	switch (surface) {
		case "read":
			return touch.access === "read";
		case "write":
			return touch.access === "write";
		case "path":
			return true;
		case "outside-cwd":
			return touch.outsideCwd;
	}
}

/** The forms a touch can be named by; one when no symlink is involved. */
export function touchForms(touch: PathTouch): readonly string[] {
	return touch.absolute === touch.resolved ? [touch.absolute] : [touch.absolute, touch.resolved];
}

/** The earliest deny or ask rule (from `index`) that matches the part on any surface. */
export function findMatchingRule(
	index: ActionRuleIndex,
	action: ClassifiedAction,
	part: ActionPart,
	cwd: string,
): PolicyRule | null {
	// Each lookup is bounded by the best rule so far: it returns an earlier match or that rule.
	let best: PolicyRule | null = earliestWildcardRule(index.tool, action.tool);
	if (part.command) {
		for (const text of strictCommandTexts(part.command))
			best = earliestWildcardRule(index.command, text, best);
	}
	for (const touch of part.paths) {
		const lookup: PathLookup = {
			accept: (rule) => surfaceApplies(rule.surface, touch),
			scopeOf: matchAnywhere,
		};
		for (const form of touchForms(touch)) best = earliestPathRule(index.path, form, cwd, lookup, best);
	}
	return best;
}

/**
 * An allow rule (from `index`) that covers the whole part: a `tool` rule on the action's tool; else for a part
 * with a command a `command` rule on its text; else for a part with paths — or a command whose only effects are
 * its paths (`touch src/x`, `echo hi > src/y`) — rules covering every form of every path it writes (the rule
 * for the first one is returned). The reads of such a command need a covering rule only when reads are not
 * allowed without asking anyway (`readsRunUnasked`): `cp a src/b` is then what the read and write tools would do.
 */
export function findCoveringAllowRule(
	index: ActionRuleIndex,
	action: ClassifiedAction,
	part: ActionPart,
	cwd: string,
	readsRunUnasked = false,
): PolicyRule | null {
	return (
		specificAllowRule(index, part, cwd, readsRunUnasked) ?? earliestWildcardRule(index.tool, action.tool)
	);
}

function specificAllowRule(
	index: ActionRuleIndex,
	part: ActionPart,
	cwd: string,
	readsRunUnasked: boolean,
): PolicyRule | null {
	if (part.command) {
		const byCommand: PolicyRule | null = earliestWildcardRule<PolicyRule>(index.command, part.command.text);
		if (byCommand !== null || part.knownEffects !== true) return byCommand;
		const touches = readsRunUnasked ? part.paths.filter((touch) => touch.access === "write") : part.paths;
		return pathsAllowRule(index, touches, cwd);
	}
	return pathsAllowRule(index, part.paths, cwd);
}

function pathsAllowRule(index: ActionRuleIndex, paths: readonly PathTouch[], cwd: string): PolicyRule | null {
	let first: PathRule | null = null;
	for (const touch of paths) {
		const lookup: PathLookup = { accept: (rule) => surfaceApplies(rule.surface, touch), scopeOf: allowScope };
		for (const form of touchForms(touch)) {
			const rule = earliestPathRule<PathRule>(index.path, form, cwd, lookup, null);
			if (rule === null) return null;
			first ??= rule;
		}
	}
	return first;
}

const matchAnywhere = (): PathMatchScope => "outside";

/** An allow reaches outside the cwd only through an `outside-cwd` rule or an absolute pattern. */
export function allowScope(rule: { readonly surface: PathSurface }): PathMatchScope {
	return rule.surface === "outside-cwd" ? "outside" : "inside";
}
