/**
 * Entries of the `agentRules` config section, printed for a person to review and paste, never written into a
 * config: `agent allow` / `agent deny` check one origin matcher, `policy init` scaffolds every origin seen in
 * the audit log, commented out.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { AuditEntry } from "../../audit/audit-entry.ts";
import { hubRoot } from "../../hub/protocol.ts";
import { NAMED_ORIGIN_KINDS, ORIGIN_KINDS, type OriginKind } from "../../origin/origin.ts";
import { sanitizeLabel } from "../../origin/sanitize-label.ts";
import { describeZodIssue, formatJsonPath } from "../../policy/config-error.ts";
import { expandHome, projectConfigPath, userConfigPath } from "../../policy/config-paths.ts";
import { UserConfigSchema } from "../../policy/config-schema.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { fsErrorCode } from "../../vocabulary/fs-error-code.ts";
import { auditLogFiles, describeScan, scanAuditLogs, scanJson } from "../audit-logs.ts";
import { CliError, type CommandSpec, success, usageError } from "../command.ts";
import { plural } from "../display-text.ts";
import { compareText, groupOf } from "../origin-groups.ts";

const NOT_A_BYPASS =
	"Note: allow is not a bypass. It records that you expect this origin; deny rules, tier modes and asks still apply, and a deny entry wins over an allow entry.";
const DENY_EFFECT = "Effect: every tool call from a matching origin is refused, reads included.";

function agentRuleCommand(list: "allow" | "deny"): CommandSpec {
	return {
		name: `agent ${list}`,
		summary:
			list === "allow"
				? "check an origin matcher and print the entry for agentRules.allow"
				: "check an origin matcher and print the entry for agentRules.deny",
		synopsis: "--kind human|subagent|headless|ci [--name NAME]",
		help: `Checks an origin matcher with the config schema and prints the entry to paste under
agentRules.${list} in your config. Never edits a config file: you review and paste it yourself.

Options:
  --kind KIND            human, subagent, headless or ci
  --name NAME            the exact subagent name or CI provider (subagent and ci only); omit to match every
                         name of the kind`,
		options: { kind: { type: "string" }, name: { type: "string" } },
		positionals: { min: 0, max: 0, name: "" },
		async run(input) {
			const matcher = validateAgentMatcher(input.options.string("kind"), input.options.string("name"));
			const entry = matcherText(matcher);
			const snippet = `{\n\t"agentRules": {\n\t\t"${list}": [\n\t\t\t${entry}\n\t\t]\n\t}\n}`;
			const data = { list, matcher: matcherJson(matcher), entry, snippet };
			const text = [
				`pi-permission-hub agent ${list}: valid matcher. Paste this entry into the "agentRules" → "${list}" list of`,
				`${userConfigPath(input.agentDir)} (or of ${projectConfigPath("<project>")}):`,
				"",
				`    ${entry}`,
				"",
				"In context:",
				"",
				snippet.replace(/^/gm, "    "),
				"",
				list === "allow" ? NOT_A_BYPASS : DENY_EFFECT,
			].join("\n");
			return success(data, text);
		},
	};
}

function matcherJson(matcher: AgentMatcher): Record<string, unknown> {
	return matcher.name === undefined ? { kind: matcher.kind } : { kind: matcher.kind, name: matcher.name };
}

export const agentAllowCommand = agentRuleCommand("allow");
export const agentDenyCommand = agentRuleCommand("deny");

interface AgentMatcher {
	readonly kind: OriginKind;
	readonly name?: string;
}

/**
 * Check a matcher the way the config loader will (the same zod schema), plus what the schema cannot know: a
 * name the gate could never see because origin labels are sanitized before they are matched.
 */
function validateAgentMatcher(kind: string | undefined, name: string | undefined): AgentMatcher {
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

function defaultScaffoldPath(agentDir: string): string {
	return join(hubRoot(agentDir), "agent-rules.example.jsonc");
}

export const policyInitCommand: CommandSpec = {
	name: "policy init",
	summary: "scaffold an agentRules section from the origins seen in the audit log",
	synopsis: "[--out FILE|-] [--force]",
	help: `Writes a JSONC file with an "agentRules" section listing every origin seen in the audit log (sorted by
kind and name), each entry commented out under both "allow" and "deny" so nothing changes until you uncomment
a line. The file is the same byte for byte on every run over the same log (no times, no paths). A missing log
gives a template with empty sections. An existing file is never overwritten without --force.

Options:
  --out FILE             where to write (default: <agent dir>/pi-permission-hub/agent-rules.example.jsonc);
                         "-" prints it to stdout instead
  --force                overwrite an existing file`,
	options: { out: { type: "string" }, force: { type: "boolean" } },
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const out = input.options.string("out");
		if (out === "") throw new CliError("usage", "--out must not be empty (use - for stdout)");
		const origins = new ObservedOrigins();
		const scan = await scanAuditLogs(auditLogFiles(input.agentDir, input.log), (entry) => origins.add(entry));
		const list = origins.list();
		const content = agentRulesScaffold(list);
		const summary = `${plural(list.length, "origin")} ${describeScan(scan)}${origins.skippedLines > 0 ? `; ${plural(origins.skippedLines, "line")} with an origin name no rule could match left out` : ""}`;
		const data = {
			...scanJson(scan),
			origins: list,
			skipped_origin_lines: origins.skippedLines,
		};
		if (out === "-") {
			return success({ ...data, path: null, written: false, content }, content.trimEnd());
		}
		const path =
			out === undefined
				? defaultScaffoldPath(input.agentDir)
				: resolve(input.io.cwd, expandHome(out, input.io.homeDir));
		const force = input.options.flag("force");
		writeScaffold(path, content, force);
		return success(
			{ ...data, path, written: true, content },
			`pi-permission-hub policy init: wrote ${path} (${summary}).\nEvery entry is commented out: review, then copy what you mean into your config.`,
		);
	},
};

function writeScaffold(path: string, content: string, force: boolean): void {
	try {
		mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
		if (force) writeFileAtomic.sync(path, content, { mode: 0o600 });
		// `wx`: created only if absent, so an existing file is never touched, even by a racing run.
		else writeFileSync(path, content, { flag: "wx", mode: 0o600 });
	} catch (error) {
		if (!force && fsErrorCode(error) === "EEXIST") {
			throw new CliError("exists", `${path} already exists; pass --force to overwrite it`);
		}
		throw new CliError("io", `cannot write ${path}: ${errorMessage(error)}`);
	}
}

/** The config schema caps a matcher name at this length (src/policy/config-schema.ts). */
const MAX_MATCHER_NAME = 200;
/** Distinct origins collected; a hostile log could invent millions of names. */
const MAX_ORIGINS = 1_000;

const KIND_ORDER: readonly OriginKind[] = ["human", "subagent", "headless", "ci"];

interface ObservedOrigin {
	readonly kind: OriginKind;
	readonly name: string | null;
	readonly decisions: number;
}

/** Distinct (kind, name) origins seen in the audit log, and how many could not become a matcher. */
class ObservedOrigins {
	private readonly seen = new Map<string, { kind: OriginKind; name: string | null; decisions: number }>();
	private unusable = 0;
	private overflow = 0;

	add(entry: AuditEntry): void {
		const { kind, name } = groupOf(entry.origin);
		if (kind === "unknown") return;
		if (name !== null && !isMatchableName(name)) {
			this.unusable++;
			return;
		}
		const key = JSON.stringify([kind, name]);
		const found = this.seen.get(key);
		if (found) found.decisions++;
		else if (this.seen.size >= MAX_ORIGINS) this.overflow++;
		else this.seen.set(key, { kind, name, decisions: 1 });
	}

	/** Sorted by kind, then name (none first): the same order on every run over the same log. */
	list(): ObservedOrigin[] {
		return [...this.seen.values()].sort(
			(a, b) =>
				KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) ||
				(a.name === b.name ? 0 : a.name === null ? -1 : b.name === null ? 1 : compareText(a.name, b.name)),
		);
	}

	/** Lines whose origin name no rule could match (invisible characters, too long). */
	get skippedLines(): number {
		return this.unusable + this.overflow;
	}
}

/**
 * A name becomes a matcher only if the gate could ever see it: the gate sanitizes origin labels, so a name that
 * sanitizing would change (control or invisible characters, surrounding blanks) was not written by the gate.
 */
function isMatchableName(name: string): boolean {
	return name !== "" && name.length <= MAX_MATCHER_NAME && sanitizeLabel(name) === name;
}

const HEADER = `// pi-permission-hub agent rules, scaffolded by \`pi-permission-hub policy init\` from the origins in the audit log.
//
// Every entry is commented out on purpose: uncommenting one changes who may act, so review each line first.
// Copy the "agentRules" section into <agent dir>/pi-permission-hub/config.json (user level), or into
// <project>/.pi/pi-permission-hub.json (project level, read only when pi trusts the project).
//
//   deny   every tool call from a matching origin is refused, reads included.
//   allow  records that you expect this origin. It is NOT a bypass: rules, tier modes and asks still apply,
//          and a deny entry wins over an allow entry.
//
// Origins are caller-claimed (environment variables, launcher announcements): an operator signal, not proof
// of identity. A name matches exactly (case-sensitive); an entry without "name" matches every name of its kind.
`;

/**
 * The scaffold text: deterministic for the same observed origins (no times, no paths, sorted). A kind that has
 * names (subagent, ci) gets a line matching every name first, then one line per name seen.
 */
function agentRulesScaffold(origins: readonly ObservedOrigin[]): string {
	const entries = scaffoldEntries(origins);
	const section = (key: "allow" | "deny", last: boolean): string[] => [
		`\t\t"${key}": [`,
		...entries.map((e) => `\t\t\t// ${matcherText(e)}, // ${e.note}`),
		`\t\t]${last ? "" : ","}`,
	];
	const note =
		origins.length === 0
			? ["// No origins were found in the audit log; the sections below are empty.", ""]
			: [];
	return [
		HEADER,
		...note,
		"{",
		'\t"agentRules": {',
		...section("allow", false),
		...section("deny", true),
		"\t}",
		"}",
		"",
	].join("\n");
}

interface ScaffoldEntry {
	readonly kind: OriginKind;
	readonly name: string | null;
	readonly note: string;
}

function scaffoldEntries(origins: readonly ObservedOrigin[]): ScaffoldEntry[] {
	const entries: ScaffoldEntry[] = [];
	for (const kind of KIND_ORDER) {
		const ofKind = origins.filter((o) => o.kind === kind);
		if (ofKind.length === 0) continue;
		const total = ofKind.reduce((sum, o) => sum + o.decisions, 0);
		if (!NAMED_ORIGIN_KINDS.includes(kind)) {
			entries.push({ kind, name: null, note: decisions(total) });
			continue;
		}
		entries.push({ kind, name: null, note: `every ${kind}, whatever its name: ${decisions(total)}` });
		for (const o of ofKind) {
			if (o.name !== null) entries.push({ kind, name: o.name, note: decisions(o.decisions) });
		}
	}
	return entries;
}

function decisions(count: number): string {
	return `${count} decision${count === 1 ? "" : "s"}`;
}

function matcherText(origin: { readonly kind: OriginKind; readonly name?: string | null }): string {
	return origin.name === null || origin.name === undefined
		? `{ "kind": "${origin.kind}" }`
		: `{ "kind": "${origin.kind}", "name": ${JSON.stringify(origin.name)} }`;
}
