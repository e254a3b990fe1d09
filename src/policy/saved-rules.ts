/**
 * Rules a human saves from a dialog — "Always allow" / "Always deny" (adr/0018). They go into the user config,
 * the only file whose allow rules count, as ordinary rules marked `saved`: scoped to the asking call's directory
 * unless the human chose everywhere, and, for an allow, limited as the session grant would have been (`maxTier`,
 * `insideCwd`), so a saved rule never covers a riskier command than the one approved. The file's text is edited,
 * never regenerated, so its comments and layout stay; the result is validated before it replaces the file, and
 * the file is written atomically.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { applyEdits, findNodeAtLocation, modify, parseTree } from "jsonc-parser";
import writeFileAtomic from "write-file-atomic";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { indentUnitOf } from "../vocabulary/indent-unit.ts";
import { withLock } from "../vocabulary/lock-file.ts";
import type { Tier } from "../vocabulary/tier.ts";
import type { ConfigRule } from "./config-schema.ts";
import type { GrantLimit, GrantSurface } from "./grant-coverage.ts";
import { type ParsedConfig, parseConfigText } from "./parse-config-text.ts";
import { globLiteral } from "./path-pattern.ts";

/** One pattern the human approved or refused, with what it was approved for. */
export interface ApprovedPattern {
	readonly surface: GrantSurface;
	readonly pattern: string;
	readonly limit: GrantLimit;
}

export interface SaveRequest {
	readonly verdict: "allow" | "deny";
	/** The directory the rules apply in, or null for everywhere. */
	readonly directory: string | null;
	readonly patterns: readonly ApprovedPattern[];
	/** ISO time, recorded in each rule's `saved`. */
	readonly savedAt: string;
}

/**
 * The pattern an "Always allow everywhere" saves (adr/0018): a path under the cwd becomes relative to it (the
 * same place in whichever project a later session runs), so it is not the absolute pattern "in this directory"
 * saves; a command, a tool and a path outside the cwd stay as they are.
 */
export function everywherePattern(approved: ApprovedPattern, cwd: string): ApprovedPattern {
	if (approved.surface === "command" || approved.surface === "tool" || approved.limit.outsideCwd)
		return approved;
	const inside = `${globLiteral(cwd)}/`;
	if (!approved.pattern.startsWith(inside) || approved.pattern.length === inside.length) return approved;
	return { ...approved, pattern: approved.pattern.slice(inside.length) };
}

/** The config rules a save writes, one per pattern. */
export function rulesToSave(request: SaveRequest): ConfigRule[] {
	return request.patterns.map(({ surface, pattern, limit }) => ({
		surface,
		pattern,
		action: request.verdict,
		...(request.directory === null ? {} : { directory: request.directory }),
		...(request.verdict === "allow" ? allowLimit(limit.tier, limit.outsideCwd) : {}),
		saved: request.savedAt,
	}));
}

function allowLimit(tier: Tier, outsideCwd: boolean): Pick<ConfigRule, "maxTier" | "insideCwd"> {
	return outsideCwd ? { maxTier: tier } : { maxTier: tier, insideCwd: true };
}

/** Append `rules` to the user config at `file` (created when missing). Rejects, writing nothing, on any problem. */
export async function addRules(file: string, rules: readonly ConfigRule[]): Promise<void> {
	await editConfig(file, (text) => rules.reduce(appendRule, text));
}

/**
 * The text with `rule` appended to its `rules` array (made when missing), every other byte as it was: the rule
 * is written on lines of its own, indented like the file. (jsonc-parser's formatter would re-flow the line the
 * insertion touches — a user's one-line rule, say.)
 */
function appendRule(text: string, rule: ConfigRule): string {
	const root = parseTree(text);
	if (root?.type !== "object") throw new Error("the config is not a JSON object");
	const unit = indentUnitOf(text);
	const rules = findNodeAtLocation(root, ["rules"]);
	if (rules === undefined) {
		const last = root.children?.at(-1);
		const body = block(`"rules": [\n${block(JSON.stringify(rule, null, unit), unit)}\n]`, unit);
		if (last === undefined)
			return `${text.slice(0, root.offset + 1)}\n${body}\n${text.slice(root.offset + 1)}`;
		const end = last.offset + last.length;
		return `${text.slice(0, end)},\n${body}${text.slice(end)}`;
	}
	if (rules.type !== "array") throw new Error("`rules` is not an array");
	const lastRule = rules.children?.at(-1);
	const at = lastRule === undefined ? rules.offset + 1 : lastRule.offset + lastRule.length;
	const indent = lineIndent(text, lastRule?.offset ?? rules.offset) + (lastRule === undefined ? unit : "");
	const entry = block(JSON.stringify(rule, null, unit), indent);
	if (lastRule !== undefined) {
		// A comment ending the last rule's line stays with that rule.
		const lineEnd = endOfLine(text, at);
		const rest = text.slice(at, lineEnd);
		if (/^\s*,\s*(\/\/.*)?$/.test(rest)) return `${text.slice(0, lineEnd)}\n${entry}${text.slice(lineEnd)}`;
		if (/^\s*(\/\/.*)?$/.test(rest)) return `${text.slice(0, at)},${rest}\n${entry}${text.slice(lineEnd)}`;
		return `${text.slice(0, at)},\n${entry}${text.slice(at)}`;
	}
	const closing = lineIndent(text, rules.offset);
	return `${text.slice(0, at)}\n${entry}\n${closing}${text.slice(at)}`;
}

/** Every line of `text` indented by `indent`. */
function block(text: string, indent: string): string {
	return text
		.split("\n")
		.map((line) => indent + line)
		.join("\n");
}

/** The whitespace a line starts with, for the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
	const start = text.lastIndexOf("\n", offset - 1) + 1;
	return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

/** A saved rule as it was listed: where it stood, and what identifies it there. */
export interface SavedRuleRef {
	readonly file: string;
	readonly index: number;
	readonly pattern: string;
	readonly saved: string;
}

/**
 * Remove a saved rule from the user config — only if `rules[index]` is still that rule: the file may have been
 * edited since it was listed, and then the index names another rule.
 */
export async function removeSavedRule(ref: SavedRuleRef): Promise<void> {
	await editConfig(ref.file, (text) => {
		const parsed = parseConfigText(text, ref.file, "user");
		const rule = parsed.status === "loaded" ? parsed.config.rules?.[ref.index] : undefined;
		if (rule?.pattern !== ref.pattern || rule.saved !== ref.saved) {
			throw new Error(
				`rules[${ref.index}] in ${ref.file} is no longer the saved rule "${ref.pattern}"; list them again`,
			);
		}
		return withoutRule(text, ref.index);
	});
}

/**
 * The text without `rules[index]`. A rule on lines of its own (as saved rules are) goes with its lines, the
 * comma after it included; one sharing a line with other text is cut out by jsonc-parser.
 */
function withoutRule(text: string, index: number): string {
	const root = parseTree(text);
	const rule = root && findNodeAtLocation(root, ["rules", index]);
	if (rule === undefined) throw new Error(`there is no rules[${index}]`);
	const lineStart = text.lastIndexOf("\n", rule.offset - 1) + 1;
	const end = rule.offset + rule.length;
	const lineEnd = endOfLine(text, end);
	const ownLines =
		/^[ \t]*$/.test(text.slice(lineStart, rule.offset)) &&
		/^\s*,?\s*(\/\/.*)?$/.test(text.slice(end, lineEnd));
	if (!ownLines) return applyEdits(text, modify(text, ["rules", index], undefined, {}));
	return text.slice(0, lineStart) + text.slice(Math.min(text.length, lineEnd + 1));
}

/** The offset of the end of the line holding `offset` (its newline, or the end of the text). */
function endOfLine(text: string, offset: number): number {
	const newline = text.indexOf("\n", offset);
	return newline === -1 ? text.length : newline;
}

/** The saved rules of a loaded user config, with their index in `rules`. */
export function savedRulesOf(
	config: ParsedConfig,
): { readonly index: number; readonly rule: ConfigRule; readonly saved: string }[] {
	return (config.config.rules ?? []).flatMap((rule, index) =>
		rule.saved === undefined ? [] : [{ index, rule, saved: rule.saved }],
	);
}

/** Tries before giving up when an editor keeps changing the file between our read and our write. */
const EDIT_ATTEMPTS = 5;
/** How long a save waits for another session's; far longer than a save takes (milliseconds). */
const LOCK_WAIT_MS = 10_000;
/** A lock this old was left by a session that died while saving. */
const LOCK_STALE_MS = 30_000;

/**
 * Read, edit, validate, write; an invalid file is never edited (the human must fix it first). Sessions that
 * save at the same moment take turns (a lock file next to the config, adr/0018): without it two could read the
 * same text and the second write would drop the first one's rule. An editor saving the file in place is not a
 * session and takes no lock: a read that finds the file changed between two looks, or invalid (half written),
 * is tried again before it counts.
 */
async function editConfig(file: string, edit: (text: string) => string): Promise<void> {
	await mkdir(dirname(file), { recursive: true, mode: 0o700 });
	await withLock(`${file}.lock`, { waitMs: LOCK_WAIT_MS, staleMs: LOCK_STALE_MS }, async () => {
		for (let attempt = 1; ; attempt++) {
			const last = attempt === EDIT_ATTEMPTS;
			const before = await currentText(file);
			if (before !== null && !isValid(before)) {
				if (!last) {
					await pause();
					continue;
				}
				ensureValid(before, file, "it is invalid now; fix it first");
			}
			const after = edit(before ?? "{}\n");
			ensureValid(after, file, "the change would make it invalid");
			if ((await currentText(file)) !== before) {
				if (last) throw new Error(`${file} kept changing while it was edited; try again`);
				await pause();
				continue;
			}
			await writeFileAtomic(file, after, { mode: 0o600 });
			return;
		}
	});
}

/** A moment for an editor's save in progress to finish. */
function pause(): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
}

function isValid(text: string): boolean {
	return parseConfigText(text, "", "user").status !== "invalid";
}

async function currentText(file: string): Promise<string | null> {
	try {
		return await readFile(file, "utf8");
	} catch (error) {
		if (fsErrorCode(error) === "ENOENT") return null;
		throw error;
	}
}

function ensureValid(text: string, file: string, what: string): void {
	const parsed = parseConfigText(text, file, "user");
	if (parsed.status === "invalid")
		throw new Error(`${file} was not changed: ${what} (${parsed.error.message})`);
}
