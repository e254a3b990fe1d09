/**
 * Walks a parsed bash program and finds every command that can run: in lists, pipelines, subshells, groups,
 * substitutions, control-flow bodies and function bodies, and inside wrappers (sudo, xargs, bash -c, …).
 * Each command becomes a finding with its words, the directory it runs in, its redirects and the tier floors
 * of whatever wraps it. Tiers are decided later (classify-bash.ts); this file only finds.
 */
import path from "node:path";
import type { Tier } from "../../vocabulary/tier.ts";
import type { CommandUnit } from "../action.ts";
import { type EffectiveCwd, resolveDirectory } from "../paths.ts";
import { isHarmlessSink } from "../system-paths.ts";
import { strictest, type TierRaise } from "../tier-raise.ts";
import type { BashParser, SyntaxNode } from "./bash-parser.ts";
import { type BashWord, evaluateWord, syntheticWord, WORD_NODE_TYPES } from "./bash-word.ts";
import { cdPathMayBeSet, homeMayBeSet, searchesCdPath } from "./directory-variables.ts";
import { type EnvironmentAssignment, environmentInjection } from "./environment-injection.ts";
import { fromWord, type PathCandidate } from "./path-spec.ts";
import { isSystemProgramName } from "./read-proof.ts";
import { type ArgvOptions, type Unwrapped, unwrapCommand } from "./wrappers.ts";

export interface CommandFinding {
	readonly kind: "command";
	readonly unit: CommandUnit;
	/** Arguments after the command name. */
	readonly args: readonly BashWord[];
	readonly cwd: EffectiveCwd;
	/** Runs on another machine or in a container: its arguments are not local paths. */
	readonly remote: boolean;
	/** Floors of the wrappers and constructs around it (sudo → privileged, …). */
	readonly floors: readonly TierRaise[];
	/** Set when the command is a wrapper that decides its own tier (or cannot be analysed). */
	readonly self: TierRaise | undefined;
	/** Paths from redirects and from what the wrapper itself touches. */
	readonly extraPaths: readonly PathCandidate[];
	readonly placeholder: ArgvOptions["placeholder"];
	readonly runtimeOperands: boolean;
	/** It runs after the shell left the directory it started in. */
	readonly movedAway: boolean;
	/** Environment variables assigned for this command (`LD_PRELOAD=x cmd`, `env X=1 cmd`, `export X=1`). */
	readonly assignments: readonly EnvironmentAssignment[];
	/** The command name is only known at run time (`$CMD x`). */
	readonly computedName: boolean;
	/** Loop variables in scope: a path that is exactly one of them is a word its header named. */
	readonly loopVariables: ReadonlySet<string>;
}

/** Something that is not a command but still has a tier: redirects of a group, code that cannot be analysed. */
export interface OtherFinding {
	readonly kind: "other";
	readonly floor: TierRaise;
	readonly paths: readonly PathCandidate[];
	readonly cwd: EffectiveCwd;
	readonly remote: boolean;
	readonly floors: readonly TierRaise[];
	readonly loopVariables: ReadonlySet<string>;
}

export type BashFinding = CommandFinding | OtherFinding;

/** Nesting limit for shell code inside shell code (`bash -c "bash -c '…'"`). */
export const MAX_SHELL_NESTING = 8;
/** Wrappers around one command (`sudo env nice timeout …`) beyond this are not unwrapped. */
const MAX_WRAPPER_CHAIN = 32;

interface Scope {
	cwd: EffectiveCwd;
	/** `PATH` was reassigned earlier in this shell: command names may now resolve to other programs. */
	pathChanged: boolean;
	/** The shell left the directory it started in (`cd`, `pushd`, `env -C`, `find -execdir`). */
	moved: boolean;
	/** Variables a `for`/`select` header set, whose every value is one of its words (checked as paths there). */
	loopVariables: ReadonlySet<string>;
}

const PATH_CHANGED: TierRaise = {
	tier: "write",
	reason: "PATH was changed earlier, so the command name may resolve to another program",
};

interface Context {
	readonly source: string;
	readonly via: readonly string[];
	readonly floors: readonly TierRaise[];
	readonly scope: Scope;
	readonly depth: number;
	readonly remote: boolean;
}

interface WalkState {
	readonly parser: BashParser;
	readonly homeDir: string;
	readonly findings: BashFinding[];
	/** `cd name` may go to a directory of `$CDPATH` (directory-variables.ts). */
	cdPathMayBeSet: boolean;
	/** `cd` and `cd ~/x` follow a `$HOME` the command may set (directory-variables.ts). */
	homeMayBeSet: boolean;
}

const HIGHEST: Tier = "privileged";

/** Walks a parsed program; `cwd` is where it starts. */
export function findBashCommands(
	root: SyntaxNode,
	source: string,
	cwd: EffectiveCwd,
	parser: BashParser,
	homeDir: string,
): BashFinding[] {
	const state: WalkState = {
		parser,
		homeDir,
		findings: [],
		cdPathMayBeSet: cdPathMayBeSet(source, process.env),
		homeMayBeSet: homeMayBeSet(source),
	};
	const context: Context = {
		source,
		via: [],
		floors: [],
		scope: { cwd, pathChanged: false, moved: false, loopVariables: new Set() },
		depth: 0,
		remote: false,
	};
	walkStatement(state, root, context);
	return state.findings;
}

const SEQUENCE_TYPES = new Set([
	"program",
	"list",
	"compound_statement",
	"do_group",
	"if_statement",
	"elif_clause",
	"else_clause",
	"while_statement",
	"for_statement",
	"case_statement",
	"case_item",
	"negated_command",
]);

const STATEMENT_TYPES = new Set([
	...SEQUENCE_TYPES,
	"c_style_for_statement",
	"command",
	"pipeline",
	"redirected_statement",
	"subshell",
	"function_definition",
	"test_command",
	"declaration_command",
	"unset_command",
	"variable_assignment",
	"variable_assignments",
]);

function withOwnScope(context: Context, label?: string): Context {
	return {
		...context,
		scope: { ...context.scope },
		via: label === undefined ? context.via : [...context.via, label],
	};
}

function other(
	state: WalkState,
	context: Context,
	floor: TierRaise,
	paths: readonly PathCandidate[] = [],
): void {
	state.findings.push({
		kind: "other",
		floor,
		paths,
		cwd: context.scope.cwd,
		remote: context.remote,
		floors: context.floors,
		loopVariables: context.scope.loopVariables,
	});
}

function walkStatement(state: WalkState, node: SyntaxNode, context: Context): void {
	if (node.type === "for_statement" || node.type === "select_statement")
		bindLoopVariable(state, node, context);
	if (SEQUENCE_TYPES.has(node.type)) {
		walkSequence(state, node, context);
		return;
	}
	switch (node.type) {
		case "command":
			walkCommand(state, node, context, [], []);
			return;
		case "pipeline":
			// Every element of a pipeline runs in its own subshell: a `cd` there changes nothing after it.
			for (const child of node.children) {
				if (STATEMENT_TYPES.has(child.type)) walkStatement(state, child, withOwnScope(context));
			}
			return;
		case "subshell":
			walkSequence(state, node, withOwnScope(context, "(…)"));
			return;
		case "redirected_statement":
			walkRedirected(state, node, context);
			return;
		case "function_definition": {
			const name = node.children.find((child) => child.type === "word");
			const label = `${name === undefined ? "function" : context.source.slice(name.start, name.end)}()`;
			for (const child of node.children) {
				if (child.type === "word") continue;
				if (!STATEMENT_TYPES.has(child.type)) {
					walkEmbedded(state, child, context);
					continue;
				}
				// The body runs in this shell whenever the name is called, even as `true` or `ls`: a `cd` in it
				// moves the shell from then on (`true() { cd evil; }; true; git status`).
				const body = withOwnScope(context, label);
				const before = body.scope.cwd;
				walkStatement(state, child, body);
				carryOut(context.scope, body.scope, before, label);
			}
			return;
		}
		case "test_command":
			if (hasArithmeticComparison(node, context.source)) other(state, context, ARITHMETIC_ON_VARIABLES);
			walkTokensAsCommand(state, node, context);
			return;
		case "declaration_command":
		case "unset_command":
			walkDeclaration(state, node, context);
			return;
		case "variable_assignment":
		case "variable_assignments": {
			walkEmbeddedChildren(state, node, context);
			const assignments = node.type === "variable_assignment" ? [node] : node.children;
			for (const part of assignments) {
				if (part.type !== "variable_assignment") continue;
				const assignment = assignmentOf(part, context.source);
				if (assignment.name === "PATH") context.scope.pathChanged = true;
				// A variable the environment already has is exported: assigning it changes what later programs get.
				for (const raise of environmentInjection([assignment])) other(state, context, raise);
			}
			return;
		}
		case "c_style_for_statement":
			if (readsVariablesInArithmetic(node, true)) other(state, context, ARITHMETIC_ON_VARIABLES);
			// The header only: the body's own substitutions are parsed, and checked where they stand.
			if (hidesCode(node, context.source, loopBody(node)?.start)) other(state, context, HIDDEN_CODE);
			walkSequence(state, node, context);
			return;
		case "comment":
			return;
		default:
			other(state, context, { tier: HIGHEST, reason: `unrecognised bash construct "${node.type}"` });
	}
}

/** Statements in order, sharing the scope (so `cd` carries over); words between them are walked for substitutions. */
/**
 * `for f in src/*.ts`: every value `$f` takes is one of the header's words, so they are checked as the paths a
 * command given `"$f"` reads (the gate's inbox, a device), and `"$f"` is then known to be one of them. Without
 * `in`, the loop runs over the positional parameters, which are not known.
 */
function bindLoopVariable(state: WalkState, node: SyntaxNode, context: Context): void {
	const name = node.children.find((child) => child.type === "variable_name");
	const start = node.children.findIndex((child) => child.type === "in");
	if (name === undefined || start < 0) return;
	const words: PathCandidate[] = [];
	for (const child of node.children.slice(start + 1)) {
		if (!child.named || child.type === "do_group" || child.type === "compound_statement") break;
		if (WORD_NODE_TYPES.has(child.type)) words.push(fromWord(evaluateWord(child, context.source), "read"));
	}
	other(state, context, LOOP_WORDS, words);
	const variable = context.source.slice(name.start, name.end);
	context.scope.loopVariables = new Set([...context.scope.loopVariables, variable]);
}

const LOOP_WORDS: TierRaise = { tier: "read", reason: "the words a loop variable takes, read as paths" };

function walkSequence(state: WalkState, node: SyntaxNode, context: Context): void {
	if (node.type === "compound_statement" && node.children[0]?.type === "((") {
		if (readsVariablesInArithmetic(node)) other(state, context, ARITHMETIC_ON_VARIABLES);
		if (hidesCode(node, context.source)) other(state, context, HIDDEN_CODE);
		walkTokensAsCommand(state, node, context);
		return;
	}
	const children = node.children;
	for (let i = 0; i < children.length; i++) {
		const child = children[i];
		if (child === undefined || !child.named) continue;
		if (STATEMENT_TYPES.has(child.type)) {
			// `cmd &` runs asynchronously in a subshell.
			const background = children[i + 1]?.type === "&" && children[i + 1]?.named === false;
			walkStatement(state, child, background ? withOwnScope(context, "&") : context);
		} else if (child.type !== "comment") {
			walkEmbedded(state, child, context);
		}
	}
}

/** Command and process substitutions inside words, expansions and heredoc bodies. */
function walkEmbedded(state: WalkState, node: SyntaxNode, context: Context): void {
	if (node.type === "command_substitution" || node.type === "process_substitution") {
		const opener = node.children[0]?.type ?? "$(";
		const label = opener === "`" ? "`…`" : opener === "<(" ? "<(…)" : opener === ">(" ? ">(…)" : "$(…)";
		const inner = withOwnScope(context, label);
		if (opener === "`" && walkBackquoted(state, node, inner)) return;
		for (const child of node.children) {
			if (child.type === "file_redirect") {
				// `$(< file)` reads the file.
				const redirect = evaluateRedirect(child, context.source);
				if (redirect.path !== undefined)
					other(state, inner, { tier: "read", reason: "reads a file" }, [redirect.path]);
			} else if (STATEMENT_TYPES.has(child.type)) {
				walkStatement(state, child, inner);
			}
		}
		return;
	}
	// An assignment inside a command or declaration is that command's to judge; only its value is walked here.
	if (node.type === "variable_assignment") {
		walkEmbeddedChildren(state, node, context);
		return;
	}
	if (STATEMENT_TYPES.has(node.type)) {
		walkStatement(state, node, withOwnScope(context));
		return;
	}
	if (node.type === "arithmetic_expansion" && readsVariablesInArithmetic(node)) {
		other(state, context, ARITHMETIC_ON_VARIABLES);
	}
	if (
		(node.type === "arithmetic_expansion" || node.type === "expansion") &&
		hidesCode(node, context.source)
	) {
		other(state, context, HIDDEN_CODE);
	}
	if (node.type === "subscript" && !plainSubscript(node, context.source)) {
		other(state, context, ARITHMETIC_ON_VARIABLES);
	}
	if (node.type === "expansion") {
		const risk = expansionRisk(node, context.source);
		if (risk !== undefined) other(state, context, risk);
	}
	walkEmbeddedChildren(state, node, context);
}

/**
 * An unquoted here-document's body is expanded as bash reads it, but the grammar mis-reads some bodies (one that
 * starts with a blank or a backslash, a delimiter with `$` in it) and leaves their `$(…)` as text; backquotes
 * are always left as text. The body hides code when it holds backquotes or `$[`, or more `$(` than the
 * substitutions parsed out of it.
 */
function hereDocumentHidesCode(heredoc: SyntaxNode, source: string): boolean {
	const start = heredoc.children.find((child) => child.type === "heredoc_start");
	const end = heredoc.children.find((child) => child.type === "heredoc_end");
	if (start === undefined || /['"\\]/.test(source.slice(start.start, start.end))) return false;
	const bodyStart = source.indexOf("\n", start.end) + 1;
	const body = source.slice(bodyStart, end?.start ?? heredoc.end);
	return body.includes("`") || substitutionsWritten(body) !== substitutionsParsed(heredoc.children, source);
}

/**
 * Text the grammar keeps whole though bash expands `$(…)` in it: a `${x#pattern}` pattern, a quoted word inside
 * `"${x:-'…'}"` (single quotes do not quote there), arithmetic (`(( '$(cmd)' ))` is double-quote context). The
 * node hides code when its text holds backquotes, or more `$(`/`$[` than the substitutions parsed out of it.
 */
function hidesCode(node: SyntaxNode, source: string, end = node.end): boolean {
	const text = source.slice(node.start, end);
	if (text.includes("`")) return true;
	const written = substitutionsWritten(text);
	return written > 0 && written !== substitutionsParsed([node], source, end);
}

function loopBody(node: SyntaxNode): SyntaxNode | undefined {
	return node.children.find((child) => child.type === "do_group" || child.type === "compound_statement");
}

/** `$(`, `$((` and `$[` openers in the text, less those escaped by a backslash. */
function substitutionsWritten(text: string): number {
	return [...text.matchAll(/(\\*)\$[([]/g)].filter((match) => (match[1]?.length ?? 0) % 2 === 0).length;
}

/** Substitutions parsed out of the nodes, those that start before `end` only. */
function substitutionsParsed(
	nodes: readonly SyntaxNode[],
	source: string,
	end = Number.POSITIVE_INFINITY,
): number {
	let parsed = 0;
	const stack = [...nodes];
	while (stack.length > 0) {
		const node = stack.pop();
		if (node === undefined) break;
		if (node.start >= end) continue;
		const opener = source.slice(node.start, node.start + 2);
		if (
			(node.type === "command_substitution" || node.type === "arithmetic_expansion") &&
			(opener === "$(" || opener === "$[")
		)
			parsed++;
		stack.push(...node.children);
	}
	return parsed;
}

/** Code the grammar leaves as text (backquotes inside `${…}`, a mis-read here-document body) still runs. */
const HIDDEN_CODE: TierRaise = {
	tier: HIGHEST,
	reason: "a command substitution here runs a command the parser does not show",
};

/** An array subscript bash does not evaluate as an expression of variables: a number, `@` or `*`. */
function plainSubscript(node: SyntaxNode, source: string): boolean {
	const open = node.children.findIndex((child) => child.type === "[");
	const close = node.children.findIndex((child) => child.type === "]");
	const first = node.children[open + 1];
	const last = node.children[close - 1];
	if (open < 0 || close <= open + 1 || first === undefined || last === undefined) return false;
	return /^\s*(-?[0-9]+|@|\*)\s*$/.test(source.slice(first.start, last.end));
}

/** The `${x@op}` operators that only quote or transform the value (`@P` expands it as a prompt, running `$(…)`). */
const HARMLESS_TRANSFORMS = new Set(["Q", "E", "U", "u", "L", "a", "A", "K", "k"]);

/**
 * Forms of `${…}` whose effect depends on a variable's value as code: indirection (`${!y}` takes y's value as a
 * name, and `a[$(cmd)]` as a name runs cmd), substring offsets and lengths (arithmetic), the prompt transform,
 * and backquotes the grammar leaves unparsed inside the word.
 */
function expansionRisk(node: SyntaxNode, source: string): TierRaise | undefined {
	const text = source.slice(node.start, node.end);
	const children = node.children;
	if (children[1]?.type === "!" && !/^\$\{![A-Za-z_][A-Za-z0-9_]*(\*|@|\[[@*]\])\}$/.test(text)) {
		return {
			tier: HIGHEST,
			reason: `${text} takes a variable's value as the name to expand, which can run a command`,
		};
	}
	const at = children.findIndex((child) => child.type === "@");
	const transform = at < 0 ? undefined : children[at + 1];
	if (transform !== undefined && !HARMLESS_TRANSFORMS.has(source.slice(transform.start, transform.end))) {
		return { tier: HIGHEST, reason: `${text} expands the value as code (a prompt string runs \`$(…)\`)` };
	}
	// `${X:=v}` and `${X=v}` assign X for the rest of the shell, as `X=v` does.
	const assigning = children.find((child) => child.type === ":=" || child.type === "=");
	const assigned = children[1];
	if (assigning !== undefined && assigned?.type === "variable_name") {
		const name = source.slice(assigned.start, assigned.end);
		const raises = environmentInjection([{ name, value: "", literal: false }]);
		if (raises.length > 0) return strictest(raises);
	}
	const colon = children.findIndex((child) => child.type === ":");
	if (colon >= 0) {
		const close = children.at(-1);
		const range = source.slice(children[colon]?.end ?? 0, close?.type === "}" ? close.start : node.end);
		if (!/^[\s0-9:+-]*$/.test(range)) return ARITHMETIC_ON_VARIABLES;
	}
	return undefined;
}

/**
 * bash evaluates a variable's value inside arithmetic (`$((x))`, `((…))`, `[[ $x -eq 0 ]]`, an array subscript)
 * as an expression of its own, and an array subscript in it (`a[$(cmd)]`) runs a command: whatever the variable
 * holds decides what runs, so it cannot be proven harmless.
 */
const ARITHMETIC_ON_VARIABLES: TierRaise = {
	tier: HIGHEST,
	reason:
		"arithmetic on a variable: bash evaluates its value as an expression, which can run a hidden command",
};

const VARIABLE_REFERENCES = new Set([
	"variable_name",
	"simple_expansion",
	"expansion",
	"command_substitution",
]);

/** Whether an arithmetic context refers to a variable (the subscript's array name itself does not count). */
function readsVariablesInArithmetic(node: SyntaxNode, skipBody = false): boolean {
	const stack: SyntaxNode[] = [...node.children];
	if (node.type === "subscript") stack.shift();
	while (stack.length > 0) {
		const current = stack.pop();
		if (current === undefined) break;
		if (skipBody && (current.type === "do_group" || current.type === "compound_statement")) continue;
		if (VARIABLE_REFERENCES.has(current.type)) return true;
		stack.push(...current.children);
	}
	return false;
}

/**
 * Inside backquotes bash removes the backslash from `\$`, `` \` `` and `\\` before parsing the text as
 * commands, which the grammar does not model; when such escapes occur the text is unescaped and parsed again.
 * Returns false when there is nothing to unescape (the grammar's own parse is then exact).
 */
function walkBackquoted(state: WalkState, node: SyntaxNode, context: Context): boolean {
	const content = context.source.slice(node.start + 1, node.end - 1);
	const unescaped = content.replace(/\\([$`\\])/g, "$1");
	if (unescaped === content) return false;
	walkShellCode(state, [syntheticWord(unescaped, undefined)], context, "`…`", false);
	return true;
}

function walkEmbeddedChildren(state: WalkState, node: SyntaxNode, context: Context): void {
	for (const child of node.children) walkEmbedded(state, child, context);
}

interface Redirect {
	readonly path: PathCandidate | undefined;
	/** Words the grammar attached to the redirect that are really arguments of the command (`rm 2>x -rf y`). */
	readonly extraArgs: readonly SyntaxNode[];
}

function evaluateRedirect(node: SyntaxNode, source: string): Redirect {
	const operator = node.children.find((child) => !child.named)?.type ?? ">";
	const words = node.children.filter((child) => child.named && child.type !== "file_descriptor");
	const [destination, ...extraArgs] = words;
	if (destination === undefined) return { path: undefined, extraArgs };
	const word = evaluateWord(destination, source);
	// `2>&1`, `<&0`, `>&-`: duplicating or closing a descriptor names no file.
	if ((operator === ">&" || operator === "<&") && /^(\d+-?|-)$/.test(word.text))
		return { path: undefined, extraArgs };
	if (word.literal && isHarmlessSink(word.text)) return { path: undefined, extraArgs };
	const access = operator === "<" || operator === "<&" ? "read" : "write";
	return { path: fromWord(word, access), extraArgs };
}

function walkRedirected(state: WalkState, node: SyntaxNode, context: Context): void {
	const paths: PathCandidate[] = [];
	const extraArgs: SyntaxNode[] = [];
	let body: SyntaxNode | undefined;
	const after: SyntaxNode[] = [];
	for (const child of node.children) {
		if (child.type === "file_redirect") {
			const redirect = evaluateRedirect(child, context.source);
			if (redirect.path !== undefined) paths.push(redirect.path);
			extraArgs.push(...redirect.extraArgs);
			walkEmbedded(state, child, context);
		} else if (child.type === "heredoc_redirect") {
			if (hereDocumentHidesCode(child, context.source)) other(state, context, HIDDEN_CODE);
			for (const part of child.children) {
				if (part.type === "file_redirect") {
					const redirect = evaluateRedirect(part, context.source);
					if (redirect.path !== undefined) paths.push(redirect.path);
					extraArgs.push(...redirect.extraArgs);
					walkEmbedded(state, part, context);
				} else if (STATEMENT_TYPES.has(part.type)) {
					// `cat <<EOF && rm x` / `cat <<EOF | sh`: the grammar nests what follows the operator here.
					after.push(part);
				} else {
					// The body, and whatever the grammar split it into (`\\x$(cmd)` lands beside the body).
					walkEmbedded(state, part, context);
				}
			}
		} else if (child.type === "herestring_redirect") {
			walkEmbedded(state, child, context);
		} else if (body === undefined && STATEMENT_TYPES.has(child.type)) {
			body = child;
		}
	}
	if (body?.type === "command") {
		walkCommand(state, body, context, paths, extraArgs);
	} else {
		if (body !== undefined) walkStatement(state, body, context);
		if (extraArgs.length > 0) {
			other(state, context, { tier: HIGHEST, reason: "words after a redirect that belong to no command" });
		}
		if (paths.length > 0) other(state, context, { tier: "read", reason: "redirects input or output" }, paths);
	}
	for (const part of after) {
		const pipedFrom = part.type === "pipeline";
		walkStatement(state, part, pipedFrom ? withOwnScope(context) : context);
	}
}

function walkCommand(
	state: WalkState,
	node: SyntaxNode,
	context: Context,
	outerPaths: readonly PathCandidate[],
	outerExtraArgs: readonly SyntaxNode[],
): void {
	const source = context.source;
	const paths = [...outerPaths];
	const assignments: EnvironmentAssignment[] = [];
	const wordNodes: SyntaxNode[] = [];
	const extraArgs: SyntaxNode[] = [];
	let nameNode: SyntaxNode | undefined;
	const children = node.children;
	for (let i = 0; i < children.length; i++) {
		const child = children[i];
		if (child === undefined) continue;
		if (!child.named) {
			// `$"…"` leaves a lone `$` token glued to the string that follows.
			const next = children[i + 1];
			if (child.type === "$" && next !== undefined && next.start === child.end) continue;
			if (nameNode !== undefined) wordNodes.push(child);
			continue;
		}
		switch (child.type) {
			case "variable_assignment":
				assignments.push(assignmentOf(child, source));
				walkEmbedded(state, child, context);
				break;
			case "file_redirect": {
				const redirect = evaluateRedirect(child, source);
				if (redirect.path !== undefined) paths.push(redirect.path);
				extraArgs.push(...redirect.extraArgs);
				walkEmbedded(state, child, context);
				break;
			}
			case "herestring_redirect":
				walkEmbedded(state, child, context);
				break;
			case "command_name":
				nameNode = child.children.find((part) => part.named) ?? child;
				walkEmbedded(state, child, context);
				break;
			default:
				if (STATEMENT_TYPES.has(child.type)) {
					walkStatement(state, child, withOwnScope(context));
				} else {
					wordNodes.push(child);
					walkEmbedded(state, child, context);
				}
		}
	}
	for (const extra of [...extraArgs, ...outerExtraArgs]) walkEmbedded(state, extra, context);
	if (nameNode === undefined) {
		if (paths.length > 0) other(state, context, { tier: "read", reason: "redirects input or output" }, paths);
		return;
	}
	const words = [nameNode, ...wordNodes, ...extraArgs, ...outerExtraArgs].map((word) =>
		word.named ? evaluateWord(word, source) : tokenWord(word, source),
	);
	expand(state, words, context, { assignments, paths }, 0);
}

const RESERVED_WORDS: ReadonlySet<string> = new Set([
	"if",
	"then",
	"else",
	"elif",
	"fi",
	"case",
	"esac",
	"for",
	"select",
	"while",
	"until",
	"do",
	"done",
	"function",
	"{",
	"}",
]);

function isUnquotedReservedWord(word: BashWord, source: string): boolean {
	return RESERVED_WORDS.has(word.text) && source.slice(word.node.start, word.node.end) === word.text;
}

function tokenWord(node: SyntaxNode, source: string): BashWord {
	const text = source.slice(node.start, node.end);
	return { text, literal: true, pathValue: text, cannotBecomeOption: !text.startsWith("-"), node };
}

function assignmentOf(node: SyntaxNode, source: string): EnvironmentAssignment {
	const [name, , value] = node.children;
	const evaluated = value === undefined ? undefined : evaluateWord(value, source);
	return {
		name: name === undefined ? "" : source.slice(name.start, name.end),
		value: evaluated?.text ?? "",
		literal: evaluated?.literal ?? true,
	};
}

interface ExpandExtras {
	readonly assignments: readonly EnvironmentAssignment[];
	readonly paths: readonly PathCandidate[];
	readonly placeholder?: ArgvOptions["placeholder"];
	readonly runtimeOperands?: boolean;
}

function commandUnit(words: readonly BashWord[], via: readonly string[]): CommandUnit {
	const argv = words.map((word) => word.text);
	const first = argv[0] ?? "";
	return {
		text: argv.join(" "),
		name: path.posix.basename(first) || first,
		argv,
		literal: words.every((word) => word.literal),
		via,
	};
}

/** Records one command and, if it is a wrapper, the commands it runs. */
function expand(
	state: WalkState,
	words: readonly BashWord[],
	context: Context,
	extras: ExpandExtras,
	chain: number,
): void {
	const nameWord = words[0];
	if (nameWord === undefined) return;
	const unit = commandUnit(words, context.via);
	const args = words.slice(1);
	const base = {
		kind: "command" as const,
		unit,
		args,
		cwd: context.scope.cwd,
		remote: context.remote,
		floors: context.scope.pathChanged && !context.remote ? [...context.floors, PATH_CHANGED] : context.floors,
		placeholder: extras.placeholder,
		runtimeOperands: extras.runtimeOperands === true,
		movedAway: context.scope.moved,
		assignments: extras.assignments,
		loopVariables: context.scope.loopVariables,
	};
	if (!nameWord.literal) {
		state.findings.push({ ...base, self: undefined, extraPaths: extras.paths, computedName: true });
		return;
	}
	if (chain === 0 && isUnquotedReservedWord(nameWord, context.source)) {
		// bash would reject this; the grammar accepted it, so the tree is not what bash would run.
		state.findings.push({
			...base,
			self: {
				tier: HIGHEST,
				reason: `"${nameWord.text}" is a reserved word, not a command: the program is malformed`,
			},
			extraPaths: extras.paths,
			computedName: false,
		});
		return;
	}
	const unwrapped: Unwrapped | undefined =
		chain < MAX_WRAPPER_CHAIN
			? unwrapProgram(unit.name, nameWord.text, args)
			: { self: { tier: HIGHEST, reason: "too many nested wrappers to analyse" }, inner: [] };
	state.findings.push({
		...base,
		self: unwrapped?.self,
		extraPaths: [...extras.paths, ...(unwrapped?.selfPaths ?? [])],
		computedName: false,
	});
	if (!context.remote && (unit.name === "cd" || unit.name === "pushd" || unit.name === "popd")) {
		context.scope.cwd = changedDirectory(unit.name, args, context.scope.cwd, state);
		context.scope.moved = true;
	}
	const runtimeOperands = extras.runtimeOperands === true;
	if (runtimeOperands && unwrapped !== undefined && !unwrapped.inner.some((inner) => inner.kind === "argv")) {
		other(state, context, {
			tier: HIGHEST,
			reason: `xargs appends words to ${unit.name} at run time, and they can name the command it runs`,
		});
	}
	for (const inner of unwrapped?.inner ?? []) {
		const innerContext: Context = {
			...context,
			scope: { ...context.scope },
			via: [...context.via, inner.via],
			floors: inner.floor === undefined ? context.floors : [...context.floors, inner.floor],
			remote: context.remote || inner.remote === true,
		};
		if (inner.kind === "shell") {
			const before = innerContext.scope.cwd;
			walkShellCode(state, inner.code, innerContext, inner.via);
			carryOut(context.scope, innerContext.scope, before, unit.name);
			continue;
		}
		if (inner.cwd !== undefined)
			innerContext.scope.cwd = changedDirectory("cd", [inner.cwd], context.scope.cwd, {
				homeDir: state.homeDir,
				cdPathMayBeSet: false,
				homeMayBeSet: state.homeMayBeSet,
			});
		if (inner.cwd !== undefined || inner.movedAway === true) innerContext.scope.moved = true;
		const before = innerContext.scope.cwd;
		expand(
			state,
			inner.words,
			innerContext,
			{
				assignments: inner.assignments ?? [],
				paths: [],
				placeholder: inner.placeholder,
				runtimeOperands: runtimeOperands || inner.runtimeOperands === true,
			},
			chain + 1,
		);
		carryOut(context.scope, innerContext.scope, before, unit.name);
	}
}

/** Wrappers whose command runs in this very shell: a `cd` through them moves it (`builtin cd x; git status`). */
const SAME_SHELL_WRAPPERS: ReadonlySet<string> = new Set(["command", "builtin", "eval"]);

/**
 * What a wrapped command or a function body did to the shell, carried out to the shell around it. `command cd`,
 * `builtin cd` and `eval 'cd x'` move this shell; a function's body moves it whenever the function is called;
 * under any other wrapper `cd` is a program of its own that moves nothing. Where the shell is, when that is not
 * known, is not guessed: later relative paths are unresolved and git is not proven.
 */
function carryOut(outer: Scope, inner: Scope, before: EffectiveCwd, wrapper: string): void {
	if (inner.pathChanged) outer.pathChanged = true;
	if (inner.cwd === before) return;
	outer.cwd = SAME_SHELL_WRAPPERS.has(wrapper) ? inner.cwd : { known: false, label: `(${wrapper} cd)` };
	outer.moved = true;
}

/**
 * The wrapper a command is, if it is one. `./env` or `node_modules/.bin/timeout` is some other program that only
 * shares the name: what it runs is unknown, so it gets the tier of an unknown program, not the wrapper's.
 */
function unwrapProgram(name: string, written: string, args: readonly BashWord[]): Unwrapped | undefined {
	const unwrapped = unwrapCommand(name, args);
	if (unwrapped === undefined || isSystemProgramName(written)) return unwrapped;
	return {
		self: {
			tier: "write",
			reason: `\`${written}\` is a program at a path of its own, not the system's ${name}`,
		},
		inner: [],
	};
}

/** Shell code handed to a wrapper as a string (`bash -c '…'`, `eval …`, `ssh host …`): parsed and walked. */
function walkShellCode(
	state: WalkState,
	code: readonly BashWord[],
	context: Context,
	via: string,
	mustBeLiteral = true,
): void {
	if (mustBeLiteral && !code.every((word) => word.literal)) {
		other(state, context, { tier: HIGHEST, reason: `the code run by ${via} is computed at run time` });
		return;
	}
	if (context.depth + 1 > MAX_SHELL_NESTING) {
		other(state, context, {
			tier: HIGHEST,
			reason: `shell code nested more than ${MAX_SHELL_NESTING} levels deep`,
		});
		return;
	}
	const source = code.map((word) => word.text).join(" ");
	const parsed = state.parser.parse(source);
	if (!parsed.ok) {
		other(state, context, {
			tier: HIGHEST,
			reason: `the code run by ${via} cannot be analysed: ${parsed.reason}`,
		});
		return;
	}
	if (cdPathMayBeSet(source, {})) state.cdPathMayBeSet = true;
	if (homeMayBeSet(source)) state.homeMayBeSet = true;
	walkStatement(state, parsed.root, { ...context, source, depth: context.depth + 1 });
}

function changedDirectory(
	name: string,
	args: readonly BashWord[],
	cwd: EffectiveCwd,
	{ homeDir, cdPathMayBeSet, homeMayBeSet }: Pick<WalkState, "homeDir" | "cdPathMayBeSet" | "homeMayBeSet">,
): EffectiveCwd {
	if (name === "popd") return { known: false, label: "(popd)" };
	const operands = args.filter((arg) => !/^-[LPe@]+$/.test(arg.text));
	const target = operands[0];
	if (homeMayBeSet && (target === undefined || target.pathValue?.startsWith("~") === true))
		return { known: false, label: target?.text ?? "$HOME" };
	if (target === undefined) return { known: true, dir: homeDir };
	if (target.text === "-" || target.pathValue === undefined) return { known: false, label: target.text };
	if (cdPathMayBeSet && searchesCdPath(target.pathValue)) return { known: false, label: target.text };
	const dir = resolveDirectory(target.pathValue, cwd, homeDir);
	return dir === undefined ? { known: false, label: target.text } : { known: true, dir };
}

const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

/**
 * `[[ a -eq b ]]` evaluates both sides as arithmetic (`[ … ]`, the test builtin, does not), and `[[ -v a[…] ]]`
 * evaluates the subscript: anything but plain numbers there is arithmetic on a variable.
 */
function hasArithmeticComparison(node: SyntaxNode, source: string): boolean {
	if (node.children[0]?.type !== "[[") return false;
	const stack: SyntaxNode[] = [...node.children];
	while (stack.length > 0) {
		const current = stack.pop();
		if (current === undefined) break;
		const operator = current.children.find((child) => child.type === "test_operator");
		const operatorText = operator === undefined ? "" : source.slice(operator.start, operator.end);
		const operands = current.children.filter((child) => child !== operator && child.named);
		const texts = operands.map((operand) => source.slice(operand.start, operand.end));
		if (ARITHMETIC_TESTS.has(operatorText) && texts.some((text) => !/^-?\d+$/.test(text))) return true;
		if (operatorText === "-v" && texts.some((text) => text.includes("["))) return true;
		stack.push(...current.children);
	}
	return false;
}

/** `[ … ]`, `[[ … ]]`, `(( … ))`: a unit of its tokens, and its substitutions walked. */
function walkTokensAsCommand(state: WalkState, node: SyntaxNode, context: Context): void {
	walkEmbeddedChildren(state, node, context);
	const words: BashWord[] = [];
	const collect = (part: SyntaxNode): void => {
		if (part.named && WORD_NODE_TYPES.has(part.type)) {
			words.push(evaluateWord(part, context.source));
		} else if (part.children.length === 0) {
			words.push(tokenWord(part, context.source));
		} else {
			for (const child of part.children) collect(child);
		}
	};
	collect(node);
	expand(state, words, context, { assignments: [], paths: [] }, 0);
}

/** `export A=1 B`, `declare -x …`, `local …`, `unset …`: a unit of their words; assigned names recorded. */
function walkDeclaration(state: WalkState, node: SyntaxNode, context: Context): void {
	walkEmbeddedChildren(state, node, context);
	const words: BashWord[] = [];
	const assignments: EnvironmentAssignment[] = [];
	for (const child of node.children) {
		if (child.type === "variable_assignment") {
			const assignment = assignmentOf(child, context.source);
			assignments.push(assignment);
			words.push({
				text: `${assignment.name}=${assignment.value}`,
				literal: assignment.literal,
				pathValue: undefined,
				cannotBecomeOption: true,
				node: child,
			});
		} else if (child.named) {
			words.push(evaluateWord(child, context.source));
		} else {
			words.push(tokenWord(child, context.source));
		}
	}
	expand(state, words, context, { assignments, paths: [] }, 0);
	if (assignments.some((assignment) => assignment.name === "PATH")) context.scope.pathChanged = true;
}
