/**
 * `check`: what the gate's policy step would do with one tool call (or a stream of them), without pi. The same
 * classifier and the same decision function as a session, with no grants, no parked approvals and no
 * authorizer links yet.
 */
import { resolve } from "node:path";
import type { ActionPart, ClassifiedAction, ToolCall } from "../../classify/action.ts";
import { type BashParser, loadBashParser } from "../../classify/bash/bash-parser.ts";
import { describeAskingPart, describeAskWhy, sourceOfBasis } from "../../gate/basis-source.ts";
import { sessionClassifier } from "../../gate/gate-deps.ts";
import type { Origin } from "../../origin/origin.ts";
import { configErrorBlockReason } from "../../policy/config-error.ts";
import { expandHome } from "../../policy/config-paths.ts";
import type { Decision } from "../../policy/decide.ts";
import { decide } from "../../policy/decide.ts";
import type { EffectivePolicy } from "../../policy/effective-policy.ts";
import { loadPolicy } from "../../policy/load-policy.ts";
import type { ConfigLocation } from "../../policy/policy-rule.ts";
import { type OverruledExample, overruledExamples } from "../../policy/rule-examples.ts";
import type { DecisionSource } from "../../provenance/decision-source.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import * as z from "../../vocabulary/zod.ts";
import type { CliIo, CommandInput, CommandResult, CommandSpec } from "../command.ts";
import { usageError } from "../command.ts";
import { displayLine, plural } from "../display-text.ts";
import { type OriginMatcher, parseOriginOption } from "../parked-requests.ts";

export const checkCommand: CommandSpec = {
	name: "check",
	summary: "would this call run? the tier, the mode the policy gives it, and why",
	synopsis: "[--cwd DIR] [--tool NAME] [--origin KIND[:NAME]] [--untrusted] -- COMMAND… | --stdin",
	help: `Answers what the gate would do with one tool call, without pi: the tier, the mode the policy gives it
(auto: runs without asking, ask, deny), the basis (a rule, a tier's setting, an agent rule, the gate's guard
of its own files, an invalid config) and, for each part that is not read, why (which word, which option,
which path). Same config loader, classifier and decision as the gate; no session grants, parked approvals or
authorizer links are counted, so "ask" means the gate's terminal or a link decides.

Every rule's examples are tested against their rule as the gate tests them: a failing one is an invalid
config. Each "match" example is also decided by the whole policy (not with --stdin), and one it decides otherwise than its rule
says (an allow rule's example that asks or is refused, an ask rule's that runs) is listed as an overruled
example; that alone does not change the exit code.

The words after -- are the bash command, joined by spaces (one quoted word passes a command unchanged).
With --tool NAME they are the tool's input as one JSON object.

Options:
  --cwd DIR              the session's working directory (default: the current one); its
                         .pi/pi-permission-hub.json counts, as in a project pi trusts
  --untrusted            leave the project's config out, as pi does for a project it does not trust
  --tool NAME            check a call of this tool (read, write, edit, …; default bash)
  --origin KIND[:NAME]   who asks: human (default), subagent:NAME, headless or ci[:PROVIDER]
  --stdin                read one JSON object per line ({"command": "…"} or {"tool": "…", "input": {…}},
                         either with an optional "cwd") and print one JSON result per line, in order

Exit code 0 answered, 1 usage (or a --stdin line that is not a call), 2 a config in force is invalid or
unreadable: the gate would then deny every call, and so does check.`,
	options: {
		cwd: { type: "string" },
		untrusted: { type: "boolean" },
		tool: { type: "string" },
		origin: { type: "string" },
		stdin: { type: "boolean" },
	},
	positionals: { min: 0, max: Number.POSITIVE_INFINITY, name: "the command" },
	async run(input) {
		const { io } = input;
		const cwdOption = input.options.string("cwd");
		const cwd = cwdOption === undefined ? io.cwd : resolve(io.cwd, expandHome(cwdOption, io.homeDir));
		const origin = originOf(input.options.string("origin"));
		const fromStdin = input.options.flag("stdin");
		const tool = input.options.string("tool");
		if (fromStdin && (input.args.length > 0 || tool !== undefined)) {
			throw usageError("--stdin reads the calls from standard input: give no command and no --tool");
		}
		if (!fromStdin && input.args.length === 0) {
			throw usageError(`missing the command; usage: pi-permission-hub check ${checkCommand.synopsis}`);
		}
		const bash = await loadBashParser();
		const classify = sessionClassifier(
			bash,
			io.homeDir,
			input.agentDir,
			() => undefined,
			() => null,
		);
		const policyFor = policyLoader(input, bash, !input.options.flag("untrusted"));
		if (fromStdin) return checkLines(io, cwd, classify, policyFor, origin);
		const call = commandLineCall(tool ?? "bash", input.args, cwd);
		const policy = policyFor(cwd);
		const verdict = callVerdict(call, policy, classify, origin);
		const overruled = overruledExamples(policy, (example) => classify(example, policy), origin);
		return {
			...configFailure(policy),
			exitCode: policy.configErrors.length > 0 ? 2 : 0,
			data: {
				result: verdictJson(verdict),
				config: configJson(policy),
				overruled_examples: overruled.map(overruledJson),
			},
			text: [
				`pi-permission-hub check: ${verdictText(verdict).join("\n")}`,
				...configText(policy),
				...overruled.map((o) => `  overruled example: ${overruledText(o)}`),
			].join("\n"),
		};
	},
};

/**
 * The policy a session in `cwd` would have, its rules' examples tested as the gate tests them; loaded once per
 * directory (a --stdin run may name several).
 */
function policyLoader(
	input: CommandInput,
	bash: BashParser,
	projectTrusted: boolean,
): (cwd: string) => EffectivePolicy {
	const loaded = new Map<string, EffectivePolicy>();
	return (cwd) => {
		let policy = loaded.get(cwd);
		if (policy === undefined) {
			policy = loadPolicy({ agentDir: input.agentDir, cwd, homeDir: input.io.homeDir, projectTrusted, bash });
			loaded.set(cwd, policy);
		}
		return policy;
	};
}

function commandLineCall(tool: string, words: readonly string[], cwd: string): ToolCall {
	if (tool === "bash") return { tool, input: { command: words.join(" ") }, cwd };
	let parsed: unknown;
	try {
		parsed = JSON.parse(words.join(" "));
	} catch (error) {
		throw usageError(
			`with --tool ${tool}, the words after -- must be one JSON object: ${errorMessage(error)}`,
		);
	}
	const object = z.record(z.string(), z.unknown()).safeParse(parsed);
	if (!object.success) throw usageError(`with --tool ${tool}, the words after -- must be one JSON object`);
	return { tool, input: object.data, cwd };
}

const lineSchema = z.union([
	z.strictObject({ command: z.string(), cwd: z.optional(z.string()) }),
	z.strictObject({
		tool: z.string().check(z.minLength(1)),
		input: z.record(z.string(), z.unknown()),
		cwd: z.optional(z.string()),
	}),
]);

/**
 * One result line per input line, written as soon as it is decided, so a caller can keep the process open and
 * ask one call at a time. A line that is not a call gets an error line and the rest go on.
 */
async function checkLines(
	io: CliIo,
	defaultCwd: string,
	classify: Classify,
	policyFor: (cwd: string) => EffectivePolicy,
	origin: Origin,
): Promise<CommandResult> {
	let lineNumber = 0;
	let bad = 0;
	const invalidConfigs = new Map<string, string>();
	for await (const line of io.stdinLines()) {
		lineNumber++;
		if (line.trim() === "") continue;
		const call = stdinCall(line, defaultCwd);
		if (typeof call === "string") {
			bad++;
			io.stdout(`${JSON.stringify({ line: lineNumber, ok: false, error: call })}\n`);
			continue;
		}
		const policy = policyFor(call.cwd);
		for (const error of policy.configErrors) invalidConfigs.set(error.file, configErrorBlockReason(error));
		const verdict: CallVerdict = callVerdict(call, policy, classify, origin);
		io.stdout(`${JSON.stringify({ line: lineNumber, ok: true, ...verdictJson(verdict) })}\n`);
	}
	const failures = [
		...[...invalidConfigs.values()].map((message) => ({ kind: "config_invalid" as const, message })),
		...(bad > 0
			? [{ kind: "usage" as const, message: `${plural(bad, "line")} of standard input not a call` }]
			: []),
	];
	const [first] = failures;
	return {
		exitCode: invalidConfigs.size > 0 ? 2 : bad > 0 ? 1 : 0,
		data: {},
		text: "",
		streamed: true,
		...(first === undefined
			? {}
			: { failure: { kind: first.kind, message: failures.map((f) => f.message).join("; ") } }),
	};
}

function stdinCall(line: string, defaultCwd: string): ToolCall | string {
	let parsed: unknown;
	try {
		parsed = JSON.parse(line);
	} catch (error) {
		return `not JSON: ${errorMessage(error)}`;
	}
	const call = lineSchema.safeParse(parsed);
	if (!call.success) {
		return 'expected {"command": "…"} or {"tool": "…", "input": {…}}, with an optional "cwd"';
	}
	const cwd = call.data.cwd === undefined ? defaultCwd : resolve(defaultCwd, call.data.cwd);
	return "command" in call.data
		? { tool: "bash", input: { command: call.data.command }, cwd }
		: { tool: call.data.tool, input: call.data.input, cwd };
}

function originOf(text: string | undefined): Origin {
	if (text === undefined) return { kind: "human" };
	const matcher: OriginMatcher = parseOriginOption(text);
	switch (matcher.kind) {
		case "human":
		case "headless":
			return { kind: matcher.kind };
		case "ci":
			return { kind: "ci", provider: matcher.name };
		case "subagent": {
			if (matcher.name === null) throw usageError("--origin subagent needs a name: subagent:NAME");
			return { kind: "subagent", name: matcher.name, depth: 1, path: ["root", matcher.name] };
		}
	}
}

function configFailure(policy: EffectivePolicy): Pick<CommandResult, "failure"> {
	const [first] = policy.configErrors;
	if (first === undefined) return {};
	return { failure: { kind: "config_invalid", message: configErrorBlockReason(first), shownInText: true } };
}

function configJson(policy: EffectivePolicy) {
	return policy.sources.map((source) => ({ scope: source.scope, file: source.file, state: source.state }));
}

function configText(policy: EffectivePolicy): string[] {
	return policy.sources.map(
		(source) => `  ${source.scope} config: ${displayLine(source.file, 300)} (${source.state})`,
	);
}

interface CallVerdict {
	readonly action: ClassifiedAction;
	readonly decision: Decision;
}

type Classify = (call: ToolCall, policy: EffectivePolicy) => ClassifiedAction;

function callVerdict(
	call: ToolCall,
	policy: EffectivePolicy,
	classify: Classify,
	origin: Origin,
): CallVerdict {
	const action = classify(call, policy);
	const decision = decide(action, policy, { origin, grants: [], parkedApproval: null });
	return { action, decision };
}

/** The basis in words: which rule, tier setting, guard, agent rule or config error decided. */
function describeBasis(decision: Decision): string {
	const { basis } = decision;
	switch (basis.kind) {
		case "rule":
			return `${basis.rule.action} rule ${basis.rule.surface} "${basis.rule.pattern}" in ${where(basis.rule.origin)}`;
		case "tier":
			return `the ${basis.part.tier} tier is set to ${basis.rule.action} in ${where(basis.rule.origin)}`;
		case "guard":
			return basis.guard.kind === "refuse"
				? `refused by the gate's own guard: ${basis.guard.reason}`
				: `only a human may allow this: ${basis.guard.reason}`;
		case "agent_rule": {
			const m = basis.matcher;
			return `agentRules.deny ${m.kind}${m.name === null ? "" : `:${m.name}`} in ${where(m.origin)}`;
		}
		case "config_error":
			return configErrorBlockReason(basis.error);
		case "session_grant":
		case "parked_approval":
			// `check` passes neither grants nor approvals; named for completeness of the union.
			return basis.kind;
	}
}

function where(origin: ConfigLocation): string {
	if (origin.file === "built-in") return "the built-in defaults";
	return `${origin.file} (${origin.jsonPath}${origin.line > 0 ? `, line ${origin.line}` : ""})`;
}

/**
 * A rule's `match` example the whole policy decides otherwise (rule-examples.ts): reported, not a config error,
 * because what overrules it (another file, the origin, the project's trust) may be what the operator wants.
 */
function overruledJson({ rule, example, decision }: OverruledExample) {
	return {
		file: example.origin.file,
		json_path: example.origin.jsonPath,
		line: example.origin.line,
		example: example.text,
		rule: { surface: rule.surface, pattern: rule.pattern, action: rule.action },
		mode: decision.mode,
		basis: describeBasis(decision),
	};
}

function overruledText(overruled: OverruledExample): string {
	const { rule, example, decision } = overruled;
	const verb = rule.action === "allow" ? "covers" : "matches";
	return (
		`${where(example.origin)}: ${JSON.stringify(example.text)} ${MODE_WORDS[decision.mode]} (${decision.mode}), ` +
		`though the ${rule.action} rule ${rule.surface} ${JSON.stringify(rule.pattern)} ${verb} it: ${describeBasis(decision)}`
	);
}

/** Each part that is not `read`, with the reason the classifier gives (which word, which option, which path). */
function notReadParts(action: ClassifiedAction): readonly ActionPart[] {
	return action.parts.filter((part) => part.tier !== "read");
}

interface VerdictJson {
	readonly tool: string;
	readonly preview: string;
	readonly tier: string;
	readonly mode: Decision["mode"];
	readonly basis: {
		readonly kind: Decision["basis"]["kind"];
		readonly text: string;
		readonly source: DecisionSource;
	};
	/** Only a human may answer: no authorizer link, no grant (a guarded path). */
	readonly human_only: boolean;
	/** Whether "allow for the session" would stop it asking again. */
	readonly grantable: boolean;
	readonly asks_because: string | null;
	readonly parts: readonly {
		readonly text: string;
		readonly tier: string;
		readonly reason: string;
		/** The files it reads and writes, absolute (what path rules match). */
		readonly paths: readonly { readonly access: string; readonly path: string }[];
	}[];
	readonly not_read: readonly { readonly text: string; readonly reason: string }[];
	readonly notes: readonly string[];
	readonly hash: string;
}

function verdictJson({ action, decision }: CallVerdict): VerdictJson {
	const ask = decision.mode === "ask" ? decision : null;
	return {
		tool: action.tool,
		preview: action.preview,
		tier: action.tier,
		mode: decision.mode,
		basis: {
			kind: decision.basis.kind,
			text: describeBasis(decision),
			source: sourceOfBasis(decision.basis),
		},
		human_only: ask?.humanOnly ?? false,
		grantable: ask?.grantable ?? false,
		asks_because: ask === null ? null : describeAskWhy(ask),
		parts: action.parts.map((part) => ({
			text: describeAskingPart(part),
			tier: part.tier,
			reason: part.tierReason,
			paths: part.paths.map((touch) => ({ access: touch.access, path: touch.absolute })),
		})),
		not_read: notReadParts(action).map((part) => ({
			text: describeAskingPart(part),
			reason: part.tierReason,
		})),
		notes: decision.notes,
		hash: action.hash,
	};
}

const MODE_WORDS: Readonly<Record<Decision["mode"], string>> = {
	auto: "runs without asking",
	ask: "asks first",
	deny: "is refused",
};

/** For people: the answer on the first line, then the basis and every part that is not read. */
function verdictText(verdict: CallVerdict): string[] {
	const json = verdictJson(verdict);
	const lines = [
		`${json.tool} ${json.preview}: ${MODE_WORDS[json.mode]} (${json.mode}), tier ${json.tier}`,
		`  basis: ${json.basis.text}`,
	];
	if (json.human_only) lines.push("  only a human may answer: no authorizer link, and no grant covers it");
	for (const part of json.not_read) lines.push(`  not read: ${part.text}: ${part.reason}`);
	for (const note of json.notes) lines.push(`  note: ${note}`);
	return lines;
}
