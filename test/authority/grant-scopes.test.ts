/**
 * One scope per answer (adr/0018): for each dialog, "for this session" (`s`), "always in this directory" (`p`)
 * and "always everywhere" (`e`) cover exactly the same following calls in this session, each grant is exactly
 * the pattern its label shows, and "everywhere" shows (and saves) a pattern other than "in this directory". All
 * through the real classifier, suggestions, dialog labels, saved-rule writer and decision.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildAskPrompt } from "../../src/authority/ask-prompt.ts";
import { toGrants } from "../../src/authority/local-dialog-authorizer.ts";
import { suggestGrants } from "../../src/authority/suggest-grant.ts";
import type { OwnAsk } from "../../src/authority/terminal-authorizer.ts";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { describeAskWhy } from "../../src/gate/basis-source.ts";
import { buildEffectivePolicy } from "../../src/policy/build-effective-policy.ts";
import { decide } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";
import { parseConfigText } from "../../src/policy/parse-config-text.ts";
import { everywherePattern, rulesToSave } from "../../src/policy/saved-rules.ts";
import { bashParser, depsFor } from "../classify/classify-fixture.ts";
import { CWD, HOME, MANAGED_FILE, PROJECT_FILE, USER_FILE } from "../policy/fixtures.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

/** A call: a bash command, or a built-in tool with its input. */
type Call = string | { readonly tool: string; readonly input: Record<string, unknown> };

const edit = (path: string): Call => ({
	tool: "edit",
	input: { path, edits: [{ oldText: "a", newText: "b" }] },
});
const write = (path: string): Call => ({ tool: "write", input: { path, content: "x\n" } });

function classify(call: Call, cwd = CWD): ClassifiedAction {
	const { tool, input } = typeof call === "string" ? { tool: "bash", input: { command: call } } : call;
	return classifyAction(
		{ tool, input, cwd },
		depsFor(bash, { homeDir: HOME, agentDir: `${HOME}/.pi/agent` }),
	);
}

/** The grant ceiling raised, so that "always" is offered (and applies) for every dialog of the table. */
const CEILING = { tier: "destructive", reason: "the scope table covers every tier" } as const;

function policy(rules: readonly unknown[], cwd = CWD): EffectivePolicy {
	const text = JSON.stringify({ grantCeiling: CEILING, rules });
	return buildEffectivePolicy({
		context: { cwd, homeDir: HOME },
		user: parseConfigText(text, USER_FILE, "user"),
		project: { status: "missing", file: PROJECT_FILE, scope: "project" },
		managed: { status: "missing", file: MANAGED_FILE, scope: "managed" },
	});
}

function mode(call: Call, p: EffectivePolicy, grants: readonly SessionGrant[] = [], cwd = CWD) {
	return decide(classify(call, cwd), p, { origin: { kind: "human" }, grants, parkedApproval: null }).mode;
}

/** The dialog the call opens, as buildAskPrompt words it, with the answers each choice gives. */
function dialogFor(call: Call) {
	const action = classify(call);
	const decision = decide(action, policy([]), {
		origin: { kind: "human" },
		grants: [],
		parkedApproval: null,
	});
	if (decision.mode !== "ask") throw new Error(`${JSON.stringify(call)} does not ask`);
	const askingParts = decision.askingParts.map((p) => ({ part: p.part, tier: p.tier }));
	const suggestions = suggestGrants(action.tool, askingParts);
	const ask: OwnAsk = {
		kind: "own",
		action,
		origin: { kind: "human" },
		sessionId: "scope-table",
		why: describeAskWhy(decision),
		humanOnly: decision.humanOnly,
		askingParts,
		suggestions,
		unanswered: "wait",
		timeoutMs: 30_000,
		deferExpiryMs: 3_600_000,
		savable: { allow: true, deny: true },
	};
	const labels = new Map(buildAskPrompt(ask, { forwarded: false }).choices.map((c) => [c.key, c.label]));
	const everywhere = suggestions.map((s) => everywherePattern(s, CWD));
	const savedAt = "2026-12-01T22:00:00.000Z";
	return {
		suggestions,
		everywhere,
		labels,
		/** What each answer leaves behind: a session grant, or a saved rule (the grant it also gives aside). */
		session: toGrants(suggestions, "session"),
		project: policy(rulesToSave({ verdict: "allow", directory: CWD, patterns: suggestions, savedAt })),
		everywhereRules: rulesToSave({ verdict: "allow", directory: null, patterns: everywhere, savedAt }),
	};
}

const shown = (s: { surface: string; pattern: string }) =>
	s.surface === "command" ? s.pattern : `${s.surface} ${s.pattern}`;

interface Row {
	readonly dialog: Call;
	/** The pattern each grant is, as its label shows it. */
	readonly grants: readonly string[];
	readonly covers: readonly Call[];
	readonly doesNotCover: readonly Call[];
}

const TABLE: readonly Row[] = [
	{
		dialog: edit("src/a.ts"),
		grants: [`write ${CWD}/src/*`],
		covers: [
			edit("src/a.ts"),
			edit("src/b.ts"),
			write("src/new.ts"),
			"sed -i s/a/b/ src/a.ts",
			"mv src/a.ts src/b.ts",
			"mkdir src/x",
			"touch src/y",
		],
		doesNotCover: [
			edit("lib/a.ts"),
			edit("src/sub/a.ts"),
			"rm src/a.ts",
			"mv src/a.ts ../elsewhere/a.ts",
			"node src/a.ts",
			"sed -i s/a/b/ src/a.ts && curl https://example.com",
		],
	},
	{
		dialog: "node scripts/gen.js",
		grants: ["node scripts/gen.js"],
		covers: ["node scripts/gen.js"],
		doesNotCover: ["node scripts/evil.js", "node scripts/gen.js --evil", "node -e 'require(1)'"],
	},
	{
		dialog: "rm -rf build/x",
		grants: ["rm -rf build/x"],
		covers: ["rm -rf build/x"],
		doesNotCover: ["rm -rf build/y", "rm -rf build/x ../victim", "rm -rf ../victim-outside"],
	},
	{
		dialog: "git push origin main",
		grants: ["git push *"],
		covers: ["git push origin main", "git push origin feature"],
		doesNotCover: [
			"git push origin main && rm -rf build",
			"git pull origin main",
			"git -C ../elsewhere push origin main",
			"git push --force origin main",
		],
	},
];

describe.each(TABLE)("the answers to the dialog for $dialog", (row) => {
	it("each grant is exactly the pattern its label shows; everywhere shows another pattern for a path", () => {
		const d = dialogFor(row.dialog);
		expect(d.suggestions.map(shown)).toEqual(row.grants);
		const text = row.grants.join(", ");
		expect(d.labels.get("s")).toBe(`Allow for this session: ${text}`);
		expect(d.labels.get("p")).toBe(`Always allow in ${CWD}: ${text}`);
		expect(d.labels.get("e")).toBe(`Always allow everywhere: ${d.everywhere.map(shown).join(", ")}`);
		expect(d.session.map(shown)).toEqual(row.grants);
		const pathGrant = d.suggestions.some((s) => s.surface !== "command" && s.surface !== "tool");
		if (pathGrant) expect(d.labels.get("e")).not.toBe(d.labels.get("p")?.replace(`in ${CWD}`, "everywhere"));
	});

	it.each(row.covers)("s, p and e all cover %j", (call) => {
		const d = dialogFor(row.dialog);
		expect(mode(call, policy([])), "asks before any answer").toBe("ask");
		expect(mode(call, policy([]), d.session), "s").toBe("auto");
		expect(mode(call, d.project), "p").toBe("auto");
		expect(mode(call, policy(d.everywhereRules)), "e").toBe("auto");
	});

	it.each(row.doesNotCover)("none of s, p and e covers %j", (call) => {
		const d = dialogFor(row.dialog);
		expect(mode(call, policy([])), "asks before any answer").toBe("ask");
		expect(mode(call, policy([]), d.session), "s").toBe("ask");
		expect(mode(call, d.project), "p").toBe("ask");
		expect(mode(call, policy(d.everywhereRules)), "e").toBe("ask");
	});
});

describe("everywhere and in this directory differ where they should", () => {
	it("in another project, the everywhere rule covers its own src/, the directory rule nothing", () => {
		const other = `${HOME}/other-project`;
		const d = dialogFor(edit("src/a.ts"));
		expect(d.everywhere.map(shown)).toEqual(["write src/*"]);
		const everywhereRules = d.everywhereRules;
		const projectRules = rulesToSave({
			verdict: "allow",
			directory: CWD,
			patterns: d.suggestions,
			savedAt: "2026-12-01T22:00:00.000Z",
		});
		expect(mode(edit("src/a.ts"), policy(everywhereRules, other), [], other)).toBe("auto");
		expect(mode(edit("src/a.ts"), policy(projectRules, other), [], other)).toBe("ask");
	});
});
