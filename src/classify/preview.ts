/**
 * The one-line-ish description of an action shown in dialogs and logs, with secrets redacted and length capped.
 * Redaction hides secret values, never what runs (adr/0005): within a value it errs on the side of hiding (a
 * redacted non-secret costs a little clarity, a shown secret cannot be taken back), but it never reaches past
 * a value into an operator, a separator, a substitution, a command or a path.
 */
import { canonicalJson } from "./action-hash.ts";
import type { BashParser } from "./bash/bash-parser.ts";
import { type Redactable, redactableSpans } from "./bash/redactable-spans.ts";
import {
	bashInput,
	editInput,
	findInput,
	grepInput,
	lsInput,
	readInput,
	writeInput,
} from "./builtin-tools.ts";

/** Bash commands are shown in full up to this length (they are what the human approves). */
export const BASH_PREVIEW_MAX = 8192;
export const PREVIEW_MAX = 2048;

/**
 * The preview of a call. A bash command is shown as its source text, quoting and all; with `bash`, its secrets
 * are redacted only within single words of its parse tree (without, within what would lexically be one word).
 */
export function previewAction(
	tool: string,
	input: Readonly<Record<string, unknown>>,
	bash?: BashParser,
): string {
	const described = describe(tool, input);
	if (described !== undefined) {
		const { text, max } = described;
		const spans = tool === "bash" && mayHoldSecrets(text) ? redactableSpans(text, bash) : ANYWHERE;
		return capped(text, max, spans);
	}
	let json: string;
	try {
		json = canonicalJson(input);
	} catch {
		json = "(input that cannot be shown)";
	}
	return capped(`${tool} ${json}`, PREVIEW_MAX);
}

/** Redacts before cutting, so a secret is never cut into a piece the patterns no longer recognise. */
function capped(text: string, max: number, redactable: Redactable = ANYWHERE): string {
	const redacted = redactSecrets(text.length > max * 2 ? text.slice(0, max * 2) : text, redactable);
	if (redacted.length <= max && text.length <= max * 2) return redacted;
	return `${redacted.slice(0, max)}… (${text.length} characters in all)`;
}

function describe(
	tool: string,
	input: Readonly<Record<string, unknown>>,
): { text: string; max: number } | undefined {
	switch (tool) {
		case "bash": {
			const parsed = bashInput().safeParse(input);
			return parsed.success ? { text: parsed.data.command, max: BASH_PREVIEW_MAX } : undefined;
		}
		case "read": {
			const parsed = readInput().safeParse(input);
			if (!parsed.success) return undefined;
			return {
				text: `${parsed.data.path}${readRange(parsed.data.offset, parsed.data.limit)}`,
				max: PREVIEW_MAX,
			};
		}
		case "write": {
			const parsed = writeInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { path, content } = parsed.data;
			const bytes = Buffer.byteLength(content, "utf8");
			const lines = lineCount(content);
			return {
				text: `${path} (${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"})`,
				max: PREVIEW_MAX,
			};
		}
		case "edit": {
			const parsed = editInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { path, edits } = parsed.data;
			const added = edits.reduce((sum, edit) => sum + lineCount(edit.newText), 0);
			const removed = edits.reduce((sum, edit) => sum + lineCount(edit.oldText), 0);
			const count = `${edits.length} ${edits.length === 1 ? "edit" : "edits"}`;
			return { text: `${path}: ${count}, +${added}/-${removed} lines`, max: PREVIEW_MAX };
		}
		case "grep": {
			const parsed = grepInput().safeParse(input);
			if (!parsed.success) return undefined;
			const { pattern, path, glob } = parsed.data;
			const text = `grep ${JSON.stringify(pattern)} in ${path ?? "."}${glob === undefined ? "" : ` (${glob})`}`;
			return { text, max: PREVIEW_MAX };
		}
		case "find": {
			const parsed = findInput().safeParse(input);
			if (!parsed.success) return undefined;
			return {
				text: `find ${JSON.stringify(parsed.data.pattern)} in ${parsed.data.path ?? "."}`,
				max: PREVIEW_MAX,
			};
		}
		case "ls": {
			const parsed = lsInput().safeParse(input);
			return parsed.success ? { text: `ls ${parsed.data.path ?? "."}`, max: PREVIEW_MAX } : undefined;
		}
		case "subagent": {
			const text = delegationPreview(input);
			return text === undefined ? undefined : { text, max: PREVIEW_MAX };
		}
		default:
			return undefined;
	}
}

/**
 * A launcher call in words: `cleaner, task: Remove old logs`, `2 in parallel: a, task: … | b, task: …`,
 * `chain: planner, task: … → worker, task: …`, `action list`; every other field follows as `key=value`, at the
 * top and in each task, so nothing the call carries is hidden. Undefined when the input names no agent, task,
 * task list or action (shown as JSON then).
 */
function delegationPreview(input: Readonly<Record<string, unknown>>): string | undefined {
	const described = new Set<string>();
	const parts: string[] = [];
	const single = assignment(input, described);
	if (single !== undefined) parts.push(single);
	if (Array.isArray(input.tasks)) {
		described.add("tasks");
		parts.push(`${input.tasks.length} in parallel: ${input.tasks.map(describeItem).join(" | ")}`);
	}
	if (Array.isArray(input.chain)) {
		described.add("chain");
		parts.push(`chain: ${input.chain.map(describeItem).join(" → ")}`);
	}
	if (typeof input.action === "string") {
		described.add("action");
		parts.push(`action ${oneLine(input.action)}`);
	}
	if (parts.length === 0) return undefined;
	return [...parts, ...otherFields(input, described)].join(" · ");
}

/** `agent, task: …` when the object names a string agent or task (recording which keys it used). */
function assignment(item: Readonly<Record<string, unknown>>, described: Set<string>): string | undefined {
	const { agent, task } = item;
	if (typeof agent !== "string" && typeof task !== "string") return undefined;
	if (typeof agent === "string") described.add("agent");
	if (typeof task === "string") described.add("task");
	const who = typeof agent === "string" ? oneLine(agent) : "(default agent)";
	return typeof task === "string" ? `${who}, task: ${oneLine(task)}` : who;
}

function describeItem(item: unknown): string {
	if (!isRecord(item)) return shownValue(item);
	const described = new Set<string>();
	const head = assignment(item, described);
	if (head === undefined) return shownValue(item);
	return [head, ...otherFields(item, described)].join(", ");
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function otherFields(record: Readonly<Record<string, unknown>>, described: ReadonlySet<string>): string[] {
	return Object.entries(record)
		.filter(([key]) => !described.has(key))
		.map(([key, value]) => `${key}=${shownValue(value)}`);
}

function shownValue(value: unknown): string {
	try {
		return typeof value === "string" ? oneLine(value) : canonicalJson(value);
	} catch {
		return "(a value that cannot be shown)";
	}
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

function readRange(offset: number | undefined, limit: number | undefined): string {
	if (offset !== undefined && limit !== undefined) return ` (lines ${offset}–${offset + limit - 1})`;
	if (offset !== undefined) return ` (from line ${offset})`;
	if (limit !== undefined) return ` (first ${limit} lines)`;
	return "";
}

function lineCount(text: string): number {
	if (text === "") return 0;
	const lines = text.split("\n").length;
	return text.endsWith("\n") ? lines - 1 : lines;
}

/** What a secret is replaced with, in previews and so in audit lines. */
export const REDACTED = "«redacted»";

// Name patterns start with a lookbehind so that a long run of word characters is tried once, not at every
// position (which would be quadratic on a long command).

/** Words that make a variable, option, header or JSON key name a secret holder. `auth` but not `author`. */
const SECRET_NAME = String.raw`(?:token|secret|passw|pwd|api[_-]?key|auth(?!or(?:s|ed)?\b)|credential|private)`;
const VALUE = String.raw`(?:"[^"]*"|'[^']*'|[^\s"',;)}\]]+)`;

interface Redaction {
	/** Group 1, when the pattern has one, is kept before the value; the rest of the match is the value hidden. */
	readonly pattern: RegExp;
	/**
	 * Literal text, compared case-insensitively, at least one of which every match of `pattern` contains. Text
	 * holding none of any redaction's literals is returned as is, without running the patterns.
	 */
	readonly needs: readonly string[];
	/** The value is whatever follows a secret's name: hidden only when it is neither code nor a path. */
	readonly namedValue?: true;
}

const SECRET_NAME_WORDS = [
	"token",
	"secret",
	"passw",
	"pwd",
	"api_key",
	"api-key",
	"apikey",
	"auth",
	"credential",
	"private",
];

const REDACTIONS: readonly Redaction[] = [
	// PEM private keys, also when the END line was cut off.
	{
		pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
		needs: ["-----BEGIN "],
	},
	// Credentials in URLs: scheme://user:password@host
	{
		pattern: /(?<![a-zA-Z0-9+.-])([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/\s:@]*:)[^@\s/]+(?=@)/g,
		needs: ["://"],
	},
	// Well-known token shapes.
	{
		pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
		needs: ["gh", "github_pat_"],
	},
	{ pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, needs: ["sk-"] },
	{ pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, needs: ["xox"] },
	{ pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, needs: ["AKIA", "ASIA"] },
	{ pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, needs: ["AIza"] },
	{ pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, needs: ["glpat-"] },
	{ pattern: /\bnpm_[A-Za-z0-9]{30,}/g, needs: ["npm_"] },
	{ pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g, needs: ["eyJ"] },
	// Authorization schemes wherever they appear.
	{
		pattern: /\b((?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]{6,}/gi,
		needs: ["bearer", "basic", "token"],
	},
	// HTTP headers and JSON/YAML keys: `X-Api-Key: v`, `"password": "v"`.
	{
		pattern: new RegExp(
			String.raw`((?<![A-Za-z0-9_-])"?[A-Za-z0-9_-]*${SECRET_NAME}[A-Za-z0-9_-]*"?\s*:\s*(?:(?:Bearer|Basic|Token)\s+)?)${VALUE}`,
			"gi",
		),
		needs: SECRET_NAME_WORDS,
		namedValue: true,
	},
	// NAME=value and --name=value / --name value.
	{
		pattern: new RegExp(`((?<![A-Za-z0-9_])[A-Za-z0-9_]*${SECRET_NAME}[A-Za-z0-9_]*=)${VALUE}`, "gi"),
		needs: SECRET_NAME_WORDS,
		namedValue: true,
	},
	{
		pattern: new RegExp(String.raw`(\s--?[A-Za-z0-9_-]*${SECRET_NAME}[A-Za-z0-9_-]*\s+)(?!-)${VALUE}`, "gi"),
		needs: SECRET_NAME_WORDS,
		namedValue: true,
	},
	// curl -u user:password
	{ pattern: /(\s(?:-u|--user)\s+["']?[^:\s"']+:)[^\s"']+/g, needs: ["-u"] },
	// mysql -psecret (the password glued to -p)
	{ pattern: /\b((?:mysql\w*|mariadb\w*)\b[^\n|;&]*?\s-p)(?=\S)[^\s]+/g, needs: ["mysql", "mariadb"] },
];

/** Code that runs (`$(…)`, backquotes, `<(…)`): a human must see it, whatever it is assigned to. */
const RUNS_CODE = /\$\(|`|[<>]\(/;

/** A path (`./k.pem`, `~/.ssh/id`, `/etc/x`): it says where a secret is, it is not one. */
const PATH_VALUE = /^["']?(?:~|\.{1,2})?\//;

/**
 * A secret's named value is hidden unless it is code or a path: secrets are redacted, never commands or where
 * they act. Inside single quotes nothing runs, so `'a$(b'` is a secret like any other.
 */
function hideableValue(value: string): boolean {
	const outsideSingleQuotes = value.replace(/'[^']*'?/g, "");
	return !RUNS_CODE.test(outsideSingleQuotes) && !PATH_VALUE.test(value);
}

/** Matches wherever some redaction could: text without a match needs no redaction at all. */
const ANY_NEEDED = new RegExp(
	[...new Set(REDACTIONS.flatMap((r) => r.needs))]
		.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
		.join("|"),
	"i",
);

/**
 * Matches a pattern may have refused before it is given up on for the text: each retry can scan to the end (a
 * PEM marker with no end marker), so decoys would cost quadratic time. Past it, secrets show, never structure.
 */
const MAX_REFUSED = 64;

/** Every character may be redacted: text that is not a shell command (file content, a tool's JSON). */
const ANYWHERE: Redactable = () => true;

/** True when some redaction could apply: text without a match needs no redaction (nor its spans computed). */
export function mayHoldSecrets(text: string): boolean {
	return ANY_NEEDED.test(text);
}

/**
 * The text with each secret value replaced by {@link REDACTED}. A value is hidden only where `redactable` says
 * every character of it may be (for a bash command, within one word: `redactableSpans`); where it may not, the
 * pattern is tried again from the next character (up to {@link MAX_REFUSED} times), so a match reaching across
 * commands does not stop a secret further on from being hidden. Patterns earlier in the list win where two
 * values overlap.
 */
export function redactSecrets(text: string, redactable: Redactable = ANYWHERE): string {
	if (!mayHoldSecrets(text)) return text;
	const hidden: { start: number; end: number }[] = [];
	// Characters already hidden, so a check costs the value's length, not the number of values hidden before.
	const taken = new Uint8Array(text.length);
	const free = (start: number, end: number): boolean => taken.subarray(start, end).every((c) => c === 0);
	for (const { pattern, namedValue } of REDACTIONS) {
		pattern.lastIndex = 0;
		let refused = 0;
		for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
			const start = match.index + (match[1]?.length ?? 0);
			const end = match.index + match[0].length;
			const value = text.slice(start, end);
			const hides =
				end > start && (!namedValue || hideableValue(value)) && redactable(start, end) && free(start, end);
			if (hides) {
				hidden.push({ start, end });
				taken.fill(1, start, end);
			}
			if (!hides && ++refused > MAX_REFUSED) break;
			pattern.lastIndex = hides ? end : match.index + 1;
		}
	}
	hidden.sort((a, b) => a.start - b.start);
	let out = "";
	let at = 0;
	for (const { start, end } of hidden) {
		out += `${text.slice(at, start)}${REDACTED}`;
		at = end;
	}
	return out + text.slice(at);
}
