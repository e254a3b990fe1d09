/**
 * classifyAction: one tool call → its tier, the surfaces it touches (commands, paths), its canonical input,
 * hash and preview. Synchronous; never consults the model. Unknown tools and unknown input shapes take the
 * highest tier.
 */
import { fileURLToPath } from "node:url";
import { HIGHEST_TIER, isTier, type Tier } from "../vocabulary/tier.ts";
import type { ActionPart, ClassifiedAction, PathAccess, PathGuard, PathTouch, ToolCall } from "./action.ts";
import { actionHash, normalizeBashCommand } from "./action-hash.ts";
import type { BashParser } from "./bash/bash-parser.ts";
import { classifyBashProgram, pathRaises, tierOfParts } from "./bash/classify-bash.ts";
import type { CommandTierEntry } from "./bash/command-tier-table.ts";
import {
	bashInput,
	editInput,
	findInput,
	grepInput,
	isBuiltInTool,
	lsInput,
	readInput,
	writeInput,
} from "./builtin-tools.ts";
import { guardOfTree, strictestGuard } from "./guarded-paths.ts";
import { ownEntry } from "./own-entry.ts";
import { makePathTouch, type PathContext, pathContext } from "./paths.ts";
import { piReadVariants } from "./pi-read-variants.ts";
import { previewAction } from "./preview.ts";
import { strictest } from "./tier-raise.ts";

/** MCP-style hints a tool may declare (mirrors pi's ToolAnnotations). */
export interface ToolAnnotations {
	readonly readOnlyHint?: boolean;
	readonly destructiveHint?: boolean;
	readonly idempotentHint?: boolean;
	readonly openWorldHint?: boolean;
}

export interface ClassifyDeps {
	readonly bash: BashParser;
	/** Operator classifications of commands: they can only raise a command's tier. */
	readonly extraCommandTiers: readonly CommandTierEntry[];
	/** Operator tiers for tools by name (raise-only for built-in tools). */
	readonly toolTiers: Readonly<Record<string, Tier>>;
	readonly toolAnnotations: (tool: string) => ToolAnnotations | undefined;
	readonly homeDir: string;
	/** pi's agent dir: the gate guards its files (guarded-paths.ts). */
	readonly agentDir: string;
	/** The root's project (adr/0008): a path is inside the cwd only when it is inside this too. Absent: the cwd. */
	readonly projectDir?: string;
	/** The `PATH` bash commands run with: a bare name it resolves into the project is said (adr/0008). */
	readonly searchPath?: string;
	/**
	 * Whether the call starts subagents through a known launcher (the delegation guard's finding), and whether
	 * those children run with the gate. Absent: no call is taken for a delegation.
	 */
	readonly delegation?: (call: ToolCall) => DelegationClass | null;
}

/** What a delegation is, as far as its tier goes. */
export interface DelegationClass {
	/** The launcher, in words (`pi-subagents`, `a pi process launcher`). */
	readonly launcher: string;
	/** True when every child it starts loads the gate (or it starts none). */
	readonly gated: boolean;
	/**
	 * Null when its children are contained; else what they load beyond the gate and the user's own configuration,
	 * or where outside the project they run, in words: such a delegation is for a human alone (adr/0011).
	 */
	readonly uncontained: string | null;
}

/**
 * A delegation whose children run with the gate does nothing itself but start them: everything they then do is
 * decided by their own gate and forwarded here. What the call itself costs is model tokens, hence `spend` — not
 * "unknown tool" (privileged), so that tightening `privileged` does not switch subagents off. A delegation whose
 * children would run ungated keeps the unknown tool's tier and is guarded besides (adr/0011).
 */
export const GATED_DELEGATION_TIER: Tier = "spend";

export function classifyAction(call: ToolCall, deps: ClassifyDeps): ClassifiedAction {
	const paths = pathContext(call.cwd, deps.homeDir, deps.agentDir, deps.projectDir);
	const { parts, input } = isBuiltInTool(call.tool)
		? classifyBuiltIn(call, deps, paths)
		: { parts: [classifyOtherTool(call, deps, paths)], input: call.input };
	const configured = ownEntry(deps.toolTiers, call.tool);
	if (isBuiltInTool(call.tool) && configured !== undefined) {
		parts.push(configuredToolPart(call.tool, configured));
	}
	const guarded = parts.map(withGuardOfPaths);
	const tier = tierOfParts(guarded);
	return {
		tool: call.tool,
		input,
		cwd: call.cwd,
		tier,
		parts: guarded,
		hash: actionHash({ tool: call.tool, input, cwd: call.cwd, tier }),
		preview: previewAction(call.tool, call.input, deps.bash),
	};
}

/** A part that touches a guarded path carries the strictest such guard (guarded-paths.ts), or keeps its own. */
function withGuardOfPaths(part: ActionPart): ActionPart {
	const guard = strictestGuard([part.guard, ...part.paths.map((touch) => touch.guard)]);
	return guard === null ? part : { ...part, guard };
}

interface Classified {
	readonly parts: ActionPart[];
	readonly input: Readonly<Record<string, unknown>>;
}

function invalidShape(call: ToolCall): Classified {
	return {
		parts: [
			{
				tier: HIGHEST_TIER,
				tierReason: `the input does not have the shape of a ${call.tool} call`,
				paths: [],
			},
		],
		input: call.input,
	};
}

function classifyBuiltIn(call: ToolCall, deps: ClassifyDeps, paths: PathContext): Classified {
	switch (call.tool) {
		case "bash": {
			const parsed = bashInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			const program = deps.bash.parse(parsed.data.command);
			const parts = classifyBashProgram(program, call.cwd, {
				parser: deps.bash,
				extraCommandTiers: deps.extraCommandTiers,
				paths,
				...(deps.searchPath === undefined ? {} : { searchPath: deps.searchPath }),
			});
			return { parts, input: { ...call.input, command: normalizeBashCommand(program) } };
		}
		case "read": {
			const parsed = readInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path, "read", "read", "read reads a file", paths);
		}
		case "write": {
			const parsed = writeInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path, "write", "write", "write replaces a file", paths);
		}
		case "edit": {
			const parsed = editInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path, "write", "write", "edit changes a file", paths);
		}
		case "grep": {
			const parsed = grepInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path ?? ".", "read", "read", "grep searches files", paths, {
				below: true,
			});
		}
		case "find": {
			const parsed = findInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path ?? ".", "read", "read", "find lists files", paths, {
				below: true,
			});
		}
		case "ls": {
			const parsed = lsInput().safeParse(call.input);
			if (!parsed.success) return invalidShape(call);
			return fileToolPart(call, parsed.data.path ?? ".", "read", "read", "ls lists a directory", paths);
		}
		default:
			return invalidShape(call);
	}
}

/**
 * pi's built-in file tools strip a leading `@`, turn unicode spaces into spaces and accept `file://` URLs
 * before resolving; the classifier resolves the same path pi will touch. Undefined: not a usable path.
 */
function piToolPath(raw: string): string | undefined {
	let value = raw.replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");
	if (value.startsWith("@")) value = value.slice(1);
	if (/^file:\/\//.test(value)) {
		try {
			value = fileURLToPath(value);
		} catch {
			return undefined;
		}
	}
	return value === "" || value.includes("\0") ? undefined : value;
}

function fileToolPart(
	call: ToolCall,
	rawPath: string,
	access: PathAccess,
	tier: Tier,
	reason: string,
	paths: PathContext,
	/** The tool reads or lists everything below the path (grep, find), not only the path itself. */
	{ below = false }: { readonly below?: boolean } = {},
): Classified {
	const value = piToolPath(rawPath);
	if (value === undefined) {
		const touch = makePathTouch(rawPath, access, { known: true, dir: paths.sessionCwd }, paths, "");
		return {
			parts: [
				{ tier: HIGHEST_TIER, tierReason: `${call.tool}: the path is empty or malformed`, paths: [touch] },
			],
			input: call.input,
		};
	}
	const cwd = { known: true, dir: call.cwd } as const;
	const named = makePathTouch(rawPath, access, cwd, paths, value);
	const tree = below && named.guard === undefined ? guardOfTree(named, paths) : null;
	const touch = tree === null ? named : { ...named, guard: tree };
	// pi resolves `..` before the file system sees the path (`link/../.git/config` is `.git/config` to it), so
	// the path it opens is the one made absolute first, then resolved.
	const opened = makePathTouch(rawPath, access, cwd, paths, named.absolute);
	const variants =
		call.tool === "read"
			? piReadVariants(named.absolute).map((variant) => makePathTouch(rawPath, access, cwd, paths, variant))
			: [];
	const touches = [touch, ...(opened.resolved === named.resolved ? [] : [opened]), ...variants];
	const decided = strictest([{ tier, reason: `built-in: ${reason}` }, ...pathRaises(touches)]);
	return { parts: [{ tier: decided.tier, tierReason: decided.reason, paths: touches }], input: call.input };
}

function configuredToolPart(tool: string, configured: unknown): ActionPart {
	return isTier(configured)
		? { tier: configured, tierReason: `config: tool ${tool} is ${configured}`, paths: [] }
		: { tier: HIGHEST_TIER, tierReason: `config: tool ${tool} has an invalid tier`, paths: [] };
}

interface OtherToolTier {
	readonly tier: Tier;
	readonly reason: string;
	readonly guard?: PathGuard;
}

function tierOfOtherTool(call: ToolCall, deps: ClassifyDeps): OtherToolTier {
	const tool = call.tool;
	let delegation: DelegationClass | null = null;
	try {
		delegation = deps.delegation?.(call) ?? null;
	} catch {
		return { tier: HIGHEST_TIER, reason: `whether ${tool} starts gated subagents could not be told` };
	}
	if (delegation !== null && delegation.uncontained !== null) {
		// Code the project names, run by pi itself: no rule, grant, mode, link or operator tier may accept it.
		const reason = `${tool} starts a subagent through ${delegation.launcher}, and ${delegation.uncontained}`;
		return { tier: HIGHEST_TIER, reason, guard: { kind: "human", reason } };
	}
	const configured = ownEntry(deps.toolTiers, tool);
	if (configured !== undefined) {
		const part = configuredToolPart(tool, configured);
		return { tier: part.tier, reason: part.tierReason };
	}
	if (delegation?.gated === true) {
		return {
			tier: GATED_DELEGATION_TIER,
			reason: `${tool} starts subagents through ${delegation.launcher}, each gated on its own: the call spends model tokens`,
		};
	}
	let annotations: ToolAnnotations | undefined;
	try {
		annotations = deps.toolAnnotations(tool);
	} catch {
		return { tier: HIGHEST_TIER, reason: `the annotations of tool ${tool} could not be read` };
	}
	if (annotations === undefined) {
		return { tier: HIGHEST_TIER, reason: `tool ${tool} is unknown and declares no annotations` };
	}
	// The strictest hint wins: a tool that claims both read-only and destructive is destructive.
	if (annotations.destructiveHint === true)
		return { tier: "destructive", reason: `tool ${tool} declares destructiveHint` };
	if (annotations.openWorldHint === true)
		return { tier: "network-egress", reason: `tool ${tool} declares openWorldHint` };
	if (annotations.readOnlyHint === true)
		return { tier: "read", reason: `tool ${tool} declares readOnlyHint` };
	return {
		tier: "write",
		reason: `tool ${tool} declares annotations but no read-only, destructive or open-world hint`,
	};
}

const PATH_FIELDS = ["path", "file_path", "filePath"] as const;

function classifyOtherTool(call: ToolCall, deps: ClassifyDeps, paths: PathContext): ActionPart {
	const { tier, reason, guard } = tierOfOtherTool(call, deps);
	const access: PathAccess = tier === "read" ? "read" : "write";
	const typed: string[] = [];
	for (const field of PATH_FIELDS) {
		const value = call.input[field];
		if (typeof value === "string") typed.push(value);
	}
	const list = call.input.paths;
	if (Array.isArray(list)) for (const item of list) if (typeof item === "string") typed.push(item);
	const touches: PathTouch[] = typed.map((value) =>
		makePathTouch(value, access, { known: true, dir: call.cwd }, paths),
	);
	const decided = strictest([{ tier, reason }, ...pathRaises(touches)]);
	const part = { tier: decided.tier, tierReason: decided.reason, paths: touches };
	return guard === undefined ? part : { ...part, guard };
}
