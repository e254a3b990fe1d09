/**
 * A bash program → one ActionPart per command found (and per redirect group or piece of code that cannot be
 * analysed). A part's tier is the strictest of: the built-in table (or the wrapper's own tier), option-dependent
 * raises, the floors of the wrappers around it, environment injection, the paths it writes, and the operator's
 * extra classifications.
 */
import { HIGHEST_TIER, maxTier, type Tier } from "../../vocabulary/tier.ts";
import type { ActionPart, PathTouch } from "../action.ts";
import { guardOfCopiedSource } from "../execution-config.ts";
import { guardOfTree } from "../guarded-paths.ts";
import {
	type EffectiveCwd,
	isWithinSession,
	makePathTouch,
	type PathContext,
	unresolvedPathTouch,
} from "../paths.ts";
import { opensDevice, writesSystemPath } from "../system-paths.ts";
import { strictest, type TierRaise } from "../tier-raise.ts";
import type { BashParseResult, BashParser } from "./bash-parser.ts";
import { type BashFinding, type CommandFinding, findBashCommands } from "./bash-walk.ts";
import { type BashWord, syntheticWord } from "./bash-word.ts";
import { commandPathCandidates, type PathCandidate } from "./command-paths.ts";
import { builtInTier, matchingExtraTiers, tableKey } from "./command-tier-lookup.ts";
import { refineCommandTier } from "./command-tier-refiners.ts";
import type { CommandTierEntry } from "./command-tier-table.ts";
import { commandSpec } from "./commands/index.ts";
import { homeMayBeSet } from "./directory-variables.ts";
import { environmentInjection } from "./environment-injection.ts";
import { globLinkCandidates } from "./glob-links.ts";
import { globReadMatches, globWriteCandidates } from "./glob-writes.ts";
import { piRunReason } from "./pi-run.ts";
import { projectPathEntryWritten, projectProgram } from "./project-path-program.ts";
import type { ReadVerdict } from "./read-only-spec.ts";
import { proveRead } from "./read-proof.ts";

export interface BashClassifyOptions {
	readonly parser: BashParser;
	readonly extraCommandTiers: readonly CommandTierEntry[];
	readonly paths: PathContext;
	/** The `PATH` commands run with; absent when not known. */
	readonly searchPath?: string;
}

/** What a pi a command starts may load, and why only a human may start it. */
const PI_RUN =
	"a pi session that loads what its -e flags, its settings and the project name, unchecked and unsandboxed unless it carries the gate, which nothing proves: a delegation, for a human alone";

/** More commands than this in one call are not analysed (each costs path lookups); the call takes the highest tier. */
export const MAX_PARTS = 150;

/** Classifies an already parsed program (the parse is shared with hashing). */
export function classifyBashProgram(
	parsed: BashParseResult,
	cwd: string,
	options: BashClassifyOptions,
): ActionPart[] {
	if (!parsed.ok) {
		return [
			{ tier: HIGHEST_TIER, tierReason: `the command cannot be analysed: ${parsed.reason}`, paths: [] },
		];
	}
	const start: EffectiveCwd = { known: true, dir: cwd };
	const findings = findBashCommands(parsed.root, parsed.source, start, options.parser, options.paths.homeDir);
	if (findings.length > MAX_PARTS) {
		return [
			{
				tier: HIGHEST_TIER,
				tierReason: `the command has more than ${MAX_PARTS} commands to analyse`,
				paths: [],
			},
		];
	}
	// `~` and `$HOME` in a path follow the command's own `$HOME` when it may set one (directory-variables.ts).
	const scoped = homeMayBeSet(parsed.source)
		? { ...options, paths: { ...options.paths, homeUnknown: true } }
		: options;
	return findings.map((finding) => partOf(finding, scoped));
}

function partOf(finding: BashFinding, options: BashClassifyOptions): ActionPart {
	const raises: TierRaise[] = [];
	let paths: PathTouch[];
	let known = false;
	let startsPi: string | null = null;
	if (finding.kind === "other") {
		raises.push(finding.floor, ...finding.floors);
		const reached = [
			...finding.paths,
			...globLinkCandidates(finding.paths, finding.cwd, options.paths.homeDir),
			...globWriteCandidates(finding.paths, finding.cwd, options.paths.homeDir),
		];
		paths = finding.remote ? [] : touches(reached, finding.cwd, options.paths);
		if (!finding.remote) paths.push(...guardedGlobReads(finding.paths, finding.cwd, options));
		if (!finding.remote) raises.push(...unknownReads(reached, finding.cwd, finding.loopVariables));
	} else {
		const args = argumentsOf(finding);
		const proven = proofOf(finding, args);
		const proof =
			proven?.read === true && finding.placeholder?.mayBeLinks === true
				? proofOf(finding, argumentsOf(finding, FOUND_LINK))
				: proven;
		const own = commandRaises(finding, proof, options.extraCommandTiers);
		const candidates = commandCandidates(finding, args, proof);
		raises.push(...own);
		const reached = [
			...candidates,
			...globLinkCandidates(candidates, finding.cwd, options.paths.homeDir),
			...globWriteCandidates(candidates, finding.cwd, options.paths.homeDir),
		];
		paths = finding.remote
			? []
			: withCopiedRepositories(finding.unit.name, touches(reached, finding.cwd, options.paths));
		if (!finding.remote) paths.push(...guardedGlobReads(candidates, finding.cwd, options));
		if (!finding.remote) raises.push(...unknownReads(reached, finding.cwd, finding.loopVariables));
		known = effectsAreItsPaths(finding, strictest(own).tier, candidates);
		startsPi = finding.computedName
			? null
			: piRunReason({
					command: syntheticWord(finding.unit.argv[0] ?? finding.unit.name, finding.unit.argv[0]),
					args,
					cwd: finding.cwd,
					homeDir: options.paths.homeDir,
					provenRead: proof?.read === true || known,
					unknownProgram:
						builtInTier(
							tableKey(
								finding.unit.name,
								args.map((arg) => arg.text),
							),
						).pattern === undefined,
				});
		if (startsPi !== null) raises.push({ tier: HIGHEST_TIER, reason: `${startsPi}: ${PI_RUN}` });
	}
	paths = withProjectPathPrograms(paths, finding.cwd, options);
	raises.push(...pathRaises(paths));
	const decided = strictest(raises);
	const part: ActionPart = { tier: decided.tier, tierReason: decided.reason, paths };
	if (finding.kind === "other") return part;
	if (startsPi !== null) {
		// Only a human may start it, and it never runs outside the sandbox by the user's exclusions (adr/0011).
		const reason = `${startsPi}: ${PI_RUN}`;
		return { ...part, command: finding.unit, guard: { kind: "human", reason }, startsPi: true };
	}
	const found = finding.computedName
		? null
		: projectProgram({
				name: finding.unit.argv[0] ?? "",
				cwd: finding.cwd,
				searchPath: options.searchPath,
				inside: (dir) => isWithinSession(dir, options.paths),
				scope: `${options.paths.sessionCwd}\0${options.paths.project?.dir ?? ""}`,
			});
	if (found !== null && part.guard === undefined) {
		// A project file run under a trusted name: the human approving `git push` must see which git (adr/0008).
		const reason = `${finding.unit.argv[0]} resolves through PATH (entry ${found.entry}) to ${found.program}, a program inside the project, not a system one`;
		return { ...part, command: finding.unit, guard: { kind: "human", reason } };
	}
	if (!known) return { ...part, command: finding.unit };
	const writes = paths.some((touch) => touch.access === "write");
	return writes && decided.tier === "write"
		? { ...part, command: finding.unit, knownEffects: true, onlyPathEffects: true }
		: { ...part, command: finding.unit, onlyPathEffects: true };
}

/**
 * Whether the command's effects are exactly its paths: a plain command (no wrapper around it, no computed name,
 * no variables set for it, no operands arriving at run time, not on another host), either read-only by the table
 * (its writes come from redirects), a file writer at no more than `write` (its spec's `writesOnlyItsPaths`:
 * touch, mkdir, cp, mv, tee, `sed -i s/a/b/`) or a file remover at no more than `destructive` (rm, rmdir,
 * unlink), with every path known before it runs.
 */
function effectsAreItsPaths(
	finding: CommandFinding,
	ownTier: Tier,
	candidates: readonly PathCandidate[],
): boolean {
	if (finding.computedName || finding.self !== undefined || finding.remote || finding.runtimeOperands)
		return false;
	if (finding.floors.length > 0 || finding.assignments.length > 0 || finding.unit.via.length > 0)
		return false;
	const { name } = finding.unit;
	const args = finding.args.map((arg) => arg.text);
	const spec = commandSpec(name);
	const writer = ownTier === "write" && spec?.writesOnlyItsPaths?.(args) === true;
	const remover = ownTier === "destructive" && spec?.removesOnlyItsPaths === true;
	if (ownTier !== "read" && !writer && !remover) return false;
	return candidates.every((candidate) => candidate.value !== undefined);
}

function commandRaises(
	finding: CommandFinding,
	proof: ReadVerdict | undefined,
	extras: readonly CommandTierEntry[],
): TierRaise[] {
	const { unit } = finding;
	const argTexts = finding.args.map((arg) => arg.text);
	const raises: TierRaise[] = [];
	const key = tableKey(unit.name, argTexts);
	if (finding.computedName) {
		raises.push({ tier: HIGHEST_TIER, reason: "the command name is computed at run time" });
	} else {
		if (finding.self !== undefined) {
			raises.push(finding.self);
		} else if (proof?.read === true) {
			raises.push({
				tier: "read",
				reason: `built-in: ${unit.name} reads, and every word of it is proven read-only`,
			});
		} else {
			if (proof !== undefined) raises.push({ tier: proof.tier, reason: proof.reason });
			const match = builtInTier(key);
			// Not proven read: the read-only table's reason, and the tier table's where it knows more.
			if (proof === undefined || match.pattern !== undefined)
				raises.push(builtInRaise(unit.name, key, match));
		}
		const refined = refineCommandTier(unit.name, argTexts);
		if (refined !== undefined) raises.push(refined);
	}
	raises.push(...finding.floors);
	raises.push(...environmentInjection(finding.assignments));
	for (const extra of matchingExtraTiers([unit.text, key], extras)) {
		raises.push({ tier: extra.tier, reason: `config: "${extra.pattern}" is ${extra.tier}` });
	}
	return raises;
}

function builtInRaise(name: string, key: string, match = builtInTier(key)): TierRaise {
	if (match.pattern === undefined) {
		return { tier: match.tier, reason: `built-in: ${name} is not a known command, so ${match.tier}` };
	}
	if (match.pattern === `${name} *` || match.pattern === name) {
		return { tier: match.tier, reason: `built-in: ${name} is ${match.tier}` };
	}
	return { tier: match.tier, reason: `built-in: "${match.pattern}" is ${match.tier}` };
}

/** The read-only proof for a plain command (a wrapper or a computed name decides its own tier). */
function proofOf(finding: CommandFinding, args: readonly BashWord[]): ReadVerdict | undefined {
	if (finding.computedName || finding.self !== undefined) return undefined;
	const name = finding.unit.argv[0] ?? "";
	return proveRead({
		name: syntheticWord(name, name),
		args,
		runtimeOperands: finding.runtimeOperands,
		movedAway: finding.movedAway,
	});
}

/** Stands for the operands `xargs` appends at run time. */
const RUNTIME_OPERAND = syntheticWord("(operands from xargs input)", undefined);

/**
 * What `{}` also stands for when find may hand its command a symbolic link: the file behind it, known only at run
 * time (a repository's notes.md -> the gate's inbox, a device). Only a proven read needs it: any other command
 * is not `read` already (`rm {}` removes the link itself).
 */
const FOUND_LINK = syntheticWord("(a symbolic link find found)", undefined);

/** The arguments with `find -exec`'s `{}` standing for each starting point (and `found`, if given). */
function argumentsOf(finding: CommandFinding, found?: BashWord): readonly BashWord[] {
	const placeholder = finding.placeholder;
	if (placeholder === undefined) return finding.args;
	const stands = found === undefined ? placeholder.paths : [...placeholder.paths, found];
	return finding.args.flatMap((arg) =>
		placeholder.token.test(arg.text)
			? stands.map((root) => ({
					...arg,
					text: arg.text.replace(placeholder.token, root.text),
					pathValue:
						arg.pathValue === undefined || root.pathValue === undefined
							? undefined
							: arg.pathValue.replace(placeholder.token, root.pathValue),
				}))
			: [arg],
	);
}

function commandCandidates(
	finding: CommandFinding,
	args: readonly BashWord[],
	proof: ReadVerdict | undefined,
): PathCandidate[] {
	if (finding.computedName || finding.self !== undefined) return [...finding.extraPaths];
	// A proven read names its files itself; otherwise the path table, which also knows the writing options, and
	// whatever the failed proof could tell (`sort -T /etc/x`: the directory it writes into).
	const candidates = proof?.read === true ? [...proof.paths] : commandPathCandidates(finding.unit.name, args);
	if (proof !== undefined && !proof.read) {
		const known = new Set(candidates.map((candidate) => candidate.typed));
		candidates.push(...proof.paths.filter((candidate) => !known.has(candidate.typed)));
	}
	if (finding.runtimeOperands) {
		// Files that arrive on stdin are unknown; only a command that writes its operands makes that matter.
		const withRuntime = commandPathCandidates(finding.unit.name, [...args, RUNTIME_OPERAND]);
		const extra = withRuntime.at(-1);
		if (extra?.typed === RUNTIME_OPERAND.text && extra.access === "write") candidates.push(extra);
	}
	return dedupeCandidates([...candidates, ...finding.extraPaths]);
}

/**
 * A file read whose path is known only at run time (`cat -- "${x:-…}"`, `cat "$_"`, a relative path after
 * `cd "$d"`) could be the gate's inbox or a device, which a read must not open unasked; a write there is guarded
 * already (paths.ts). A loop variable is known: it is one of its header's words, checked where the loop stands.
 */
function unknownReads(
	candidates: readonly PathCandidate[],
	cwd: EffectiveCwd,
	loopVariables: ReadonlySet<string>,
): TierRaise[] {
	return candidates
		.filter(
			(candidate) =>
				candidate.access === "read" &&
				(candidate.value === undefined
					? !isLoopVariable(candidate.typed, loopVariables)
					: !placed(candidate.value, cwd)),
		)
		.map((candidate) => ({
			tier: "write",
			reason: `reads ${candidate.typed}, a path known only at run time, which could be the gate's inbox or a device`,
		}));
}

function isLoopVariable(typed: string, loopVariables: ReadonlySet<string>): boolean {
	const name = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(typed);
	const variable = name?.[1] ?? name?.[2];
	return variable !== undefined && loopVariables.has(variable);
}

/** A path value that names a place: absolute, from the home directory, or relative to a known directory. */
function placed(value: string, cwd: EffectiveCwd): boolean {
	return cwd.known || value.startsWith("/") || value === "~" || value.startsWith("~/");
}

function dedupeCandidates(candidates: readonly PathCandidate[]): PathCandidate[] {
	const seen = new Set<string>();
	return candidates.filter((candidate) => {
		const key = `${candidate.access}\u0000${candidate.typed}\u0000${candidate.value ?? ""}`;
		if (seen.has(key)) return false;
		seen.add(key);
		return true;
	});
}

function touches(candidates: readonly PathCandidate[], cwd: EffectiveCwd, context: PathContext): PathTouch[] {
	return candidates.map((candidate) => {
		if (candidate.value === undefined) return unresolvedPathTouch(candidate.typed, candidate.access);
		const touch = makePathTouch(candidate.typed, candidate.access, cwd, context, candidate.value);
		const tree = candidate.below === true && touch.guard === undefined ? guardOfTree(touch, context) : null;
		return tree === null ? touch : { ...touch, guard: tree };
	});
}

/**
 * A write into a `PATH` directory inside the project is human-only (adr/0008): it puts a program where a bare
 * name finds it, before any system one, and the command that runs it may come in the same call.
 */
function withProjectPathPrograms(
	paths: readonly PathTouch[],
	cwd: EffectiveCwd,
	options: BashClassifyOptions,
): PathTouch[] {
	if (options.searchPath === undefined) return [...paths];
	const question = {
		cwd,
		searchPath: options.searchPath,
		inside: (dir: string) => isWithinSession(dir, options.paths),
		scope: `${options.paths.sessionCwd}\0${options.paths.project?.dir ?? ""}`,
	};
	return paths.map((touch) => {
		if (touch.access !== "write" || touch.guard !== undefined || !touch.resolved.startsWith("/"))
			return touch;
		const entry = projectPathEntryWritten(question, touch.resolved);
		if (entry === undefined) return touch;
		const reason = `writes ${touch.resolved} in ${entry}, a PATH directory inside the project: a bare command name would run it instead of the system's`;
		return { ...touch, guard: { kind: "human", reason } };
	});
}

/** The guarded paths a read glob opens (the gate's inbox through `inbo?`): only those join the part's paths. */
function guardedGlobReads(
	candidates: readonly PathCandidate[],
	cwd: EffectiveCwd,
	options: BashClassifyOptions,
): PathTouch[] {
	const matches = globReadMatches(candidates, cwd, options.paths.homeDir);
	if (matches.length === 0) return [];
	return touches(matches, cwd, options.paths).filter((touch) => touch.guard !== undefined);
}

/** A copy of a git directory or a HEAD file guards the copy's writes (execution-config.ts, adr/0014). */
function withCopiedRepositories(name: string, paths: readonly PathTouch[]): PathTouch[] {
	if (commandSpec(name)?.landsSourcesAtDestination !== true) return [...paths];
	const guard = paths
		.filter((touch) => touch.access === "read" && touch.resolved.startsWith("/"))
		.map((touch) => guardOfCopiedSource(touch.resolved))
		.find((found) => found !== null);
	if (guard === undefined || guard === null) return [...paths];
	return paths.map((touch) =>
		touch.access === "write" && touch.guard === undefined ? { ...touch, guard } : touch,
	);
}

/**
 * bash opens a network connection for a redirect to these (`cat < /dev/tcp/host/80`); under `/net/`, the
 * automounter's hosts map mounts the named host's exports on first access (macOS has it on by default).
 */
const NETWORK_PATHS = /^\/dev\/(tcp|udp)\/|^\/net\/[^/]/;

export function pathRaises(paths: readonly PathTouch[]): TierRaise[] {
	const raises: TierRaise[] = [];
	for (const touch of paths) {
		if (NETWORK_PATHS.test(touch.absolute) || NETWORK_PATHS.test(touch.typed)) {
			raises.push({ tier: "network-egress", reason: `${touch.typed} is a network connection` });
			continue;
		}
		if (touch.guard !== undefined) {
			raises.push({ tier: "privileged", reason: touch.guard.reason });
			continue;
		}
		if (opensDevice(touch.absolute) || opensDevice(touch.resolved)) {
			raises.push({
				tier: "privileged",
				reason: `opening ${touch.typed} can act on a device (or drain the kernel log)`,
			});
			continue;
		}
		if (touch.access !== "write") continue;
		raises.push(
			writesSystemPath(touch)
				? { tier: "privileged", reason: `writes ${touch.typed} in a system directory` }
				: { tier: "write", reason: `writes ${touch.typed}` },
		);
	}
	return raises;
}

export function tierOfParts(parts: readonly ActionPart[]): Tier {
	return parts.reduce<Tier>((tier, part) => maxTier(tier, part.tier), "read");
}
