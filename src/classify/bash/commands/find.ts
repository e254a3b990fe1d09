/**
 * find: everything the classifier knows about it. For the read-only proof, its command line is its own options
 * (-H -L -P -D -O), the starting points, then an expression of tests and actions: every expression word must be
 * a known test or action taking the known number of arguments. `-exec`, `-execdir`, `-ok` and `-okdir` run a
 * command that is classified on its own (the unwrapper below finds it); `-delete` and the `-fprint` family make
 * find itself more than a read (the refiner), and name what it removes or writes (the paths).
 */
import { maxTier } from "../../../vocabulary/tier.ts";
import { strictest, type TierRaise } from "../../tier-raise.ts";
import { type BashWord, syntheticWord } from "../bash-word.ts";
import { dateStringCheck } from "../date-string.ts";
import { fromWord, type PathCandidate } from "../path-spec.ts";
import type { ReadVerdict } from "../read-only-spec.ts";
import { argvInner, type InnerCommand, type Unwrapped } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { files } from "./read-only-helpers.ts";

/** Tests and actions that only read, by the number of arguments they take. */
const READ_PREDICATES: Readonly<Record<string, number>> = {
	...Object.fromEntries(
		[
			"-print",
			"-print0",
			"-ls",
			"-prune",
			"-quit",
			"-true",
			"-false",
			"-empty",
			"-readable",
			"-writable",
			"-executable",
			"-nouser",
			"-nogroup",
			"-depth",
			"-d",
			"-mount",
			"-xdev",
			"-noleaf",
			"-daystart",
			"-ignore_readdir_race",
			"-noignore_readdir_race",
			"-warn",
			"-nowarn",
			"-not",
			"!",
			"-a",
			"-and",
			"-o",
			"-or",
			",",
			"(",
			")",
			"-help",
			"--help",
			"-version",
			"--version",
		].map((name) => [name, 0]),
	),
	...Object.fromEntries(
		[
			"-name",
			"-iname",
			"-path",
			"-ipath",
			"-wholename",
			"-iwholename",
			"-regex",
			"-iregex",
			"-lname",
			"-ilname",
			"-type",
			"-xtype",
			"-size",
			"-mtime",
			"-mmin",
			"-atime",
			"-amin",
			"-ctime",
			"-cmin",
			"-used",
			"-user",
			"-group",
			"-uid",
			"-gid",
			"-perm",
			"-links",
			"-inum",
			"-maxdepth",
			"-mindepth",
			"-fstype",
			"-regextype",
			"-printf",
			"-context",
		].map((name) => [name, 1]),
	),
};

/**
 * Predicates whose argument is a file find reads (to compare times, identity). Not `-files0-from`: the starting
 * points it reads from a file cannot be seen here (the gate's inbox among them).
 */
const PATH_ARGUMENT = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
const EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/**
 * Where the command of `-exec` (at `action`) ends, as GNU find reads it: at a `;` word, or, for `-exec` and
 * `-execdir`, at a `+` word right after a `{}` word. Any other `+` is an argument (`-exec echo + -print ;`).
 */
function execTerminator(args: readonly BashWord[], action: number): number {
	const plusEnds = args[action]?.text === "-exec" || args[action]?.text === "-execdir";
	for (let i = action + 1; i < args.length; i++) {
		const text = args[i]?.text;
		if (text === ";") return i;
		if (text === "+" && plusEnds && i > action + 1 && args[i - 1]?.text === "{}") return i;
	}
	return args.length;
}

/**
 * find -L (or -follow) descends through the symbolic links it meets: a repository's link to the gate's inbox lists
 * the request ids there, and -exec's `{}` then stands for the files behind it (adr/0003).
 */
const FOLLOWS_LINKS: TierRaise = {
	tier: "write",
	reason:
		"find -L follows the symbolic links it meets, into directories no word names (the gate's inbox); find without -L does not",
};

const WRITES: Readonly<Record<string, number>> = { "-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2 };
const EXPRESSION_START = /^[-(),!]/;

/**
 * Whether the files find hands to the `-exec` at `action` may be symbolic links, which the command then opens
 * (`find . -name '*.md' -exec cat {} +` reads what a repository's notes.md links to: the gate's inbox, a device).
 * Not when a `-type f` or `-type d` stands before it in the same top-level conjunction, unnegated, and find does
 * not follow links (-L, -follow): `-type` then tests the entry itself, and a link is neither.
 */
function execMaySeeLinks(args: readonly BashWord[], action: number): boolean {
	if (args.some((word) => word.text === "-L" || word.text === "-follow")) return true;
	let i = args.findIndex(
		(word) => word.literal && EXPRESSION_START.test(word.text) && !/^-[HPDO]/.test(word.text),
	);
	let guarded = false;
	let depth = 0;
	for (; i >= 0 && i < action; i++) {
		const word = args[i];
		if (word === undefined || !word.literal) return true;
		const name = word.text;
		if (name === "(") depth++;
		else if (name === ")") depth--;
		else if (EXEC.has(name)) i = execTerminator(args, i);
		else if (depth === 0 && (name === "-o" || name === "-or" || name === ",")) guarded = false;
		else if (name === "-type") {
			const negated = ["!", "-not"].includes(args[i - 1]?.text ?? "");
			const value = args[i + 1];
			if (depth === 0 && !negated && value?.literal === true && /^[fd](,[fd])*$/.test(value.text))
				guarded = true;
			i++;
		} else {
			const arity =
				WRITES[name] ?? (/^-newer..$/.test(name) || PATH_ARGUMENT.has(name) ? 1 : READ_PREDICATES[name]);
			if (arity === undefined) return true;
			i += arity;
		}
	}
	return !guarded;
}

function findExpressionVerdict(args: readonly BashWord[]): ReadVerdict {
	const paths: PathCandidate[] = [];
	const raises: TierRaise[] = [];
	const notRead = (why: string): ReadVerdict => {
		const top = strictest(raises);
		return {
			read: false,
			tier: maxTier(top.tier, "write"),
			reason: raises.length === 0 ? why : top.reason,
			paths,
		};
	};
	let i = 0;
	// Its own options come first: -H -L -P, -D debugopts, -Olevel.
	while (i < args.length) {
		const text = args[i]?.text ?? "";
		if (!args[i]?.literal) break;
		if (text === "-L") raises.push(FOLLOWS_LINKS);
		if (text === "-H" || text === "-L" || text === "-P" || /^-O\d$/.test(text)) i++;
		else if (text === "-D") i += 2;
		else break;
	}
	let roots = 0;
	for (; i < args.length; i++) {
		const word = args[i];
		if (word === undefined) break;
		if (!word.literal && !word.cannotBecomeOption)
			return notRead(`\`${word.text}\` is expanded at run time and could become part of find's expression`);
		if (word.literal && EXPRESSION_START.test(word.text)) break;
		paths.push({ ...fromWord(word, "read"), below: true });
		roots++;
	}
	if (roots === 0) paths.push({ ...fromWord(syntheticWord(".", "."), "read"), below: true });
	for (; i < args.length; i++) {
		const word = args[i];
		if (word === undefined) break;
		if (!word.literal) return notRead(`\`${word.text}\` in find's expression is computed at run time`);
		const name = word.text;
		if (EXEC.has(name)) {
			// The command runs on its own (classified separately); skip to its terminator.
			const end = execTerminator(args, i);
			const computed = args.slice(i + 1, end).find((arg) => !arg.literal);
			if (computed !== undefined)
				return notRead(`\`${computed.text}\` in find ${name}'s command could be its terminator at run time`);
			i = end;
			continue;
		}
		if (name === "-follow") {
			raises.push(FOLLOWS_LINKS);
			continue;
		}
		if (name === "-delete") {
			raises.push({ tier: "destructive", reason: "find -delete removes what it finds" });
			continue;
		}
		const writes = WRITES[name];
		if (writes !== undefined) {
			const target = args[i + 1];
			if (target !== undefined) paths.push(fromWord(target, "write"));
			raises.push({ tier: "write", reason: `find ${name} writes its output to a file` });
			i += writes;
			continue;
		}
		const newer = /^-newer[aBcmt][aBcmt]$/.test(name);
		const arity = newer ? 1 : PATH_ARGUMENT.has(name) ? 1 : READ_PREDICATES[name];
		if (arity === undefined) return notRead(`\`${name}\` is not a find test or action known to be read-only`);
		if (i + arity >= args.length && arity > 0) return notRead(`find ${name} is missing its argument`);
		for (let k = 1; k <= arity; k++) {
			const value = args[i + k];
			if (value === undefined) break;
			if (!value.literal && !value.cannotBecomeOption)
				return notRead(`the argument of find ${name} is computed at run time`);
			const readsFile = PATH_ARGUMENT.has(name) || (newer && !name.endsWith("t"));
			if (readsFile) paths.push(fromWord(value, "read"));
			const isDate = newer && name.endsWith("t");
			if (isDate && !value.literal) return notRead(`the date string of find ${name} is computed at run time`);
			const dateRaise = isDate ? dateStringCheck(value.text) : null;
			if (dateRaise !== null) {
				raises.push(dateRaise);
				return notRead(dateRaise.reason);
			}
		}
		i += arity;
	}
	if (raises.length === 0) return { read: true, paths };
	const { tier, reason } = strictest(raises);
	return { read: false, tier, reason, paths };
}

function refineFind(args: readonly string[]): TierRaise | undefined {
	if (args.includes("-delete")) return { tier: "destructive", reason: "find -delete removes what it finds" };
	if (args.some((arg) => ["-fprint", "-fprint0", "-fprintf", "-fls"].includes(arg))) {
		return { tier: "write", reason: "find writes its output to a file" };
	}
	return undefined;
}

/** The starting points: operands before the first expression (`-name`, `(`, `!`). */
function findRoots(args: readonly BashWord[]): BashWord[] {
	const roots: BashWord[] = [];
	for (const arg of args) {
		if (/^[-(!)]/.test(arg.text) && !["-H", "-L", "-P"].includes(arg.text)) break;
		if (arg.text.startsWith("-")) continue;
		roots.push(arg);
	}
	return roots;
}

function extractFind(args: readonly BashWord[]): PathCandidate[] {
	const roots = findRoots(args);
	const deletes = args.some((arg) => arg.text === "-delete");
	const out = roots.map((root) => fromWord(root, deletes ? "write" : "read"));
	args.forEach((arg, index) => {
		const next = args[index + 1];
		if (next === undefined) return;
		if (["-fprint", "-fprint0", "-fls"].includes(arg.text)) out.push(fromWord(next, "write"));
		if (arg.text === "-fprintf") out.push(fromWord(next, "write"));
	});
	return out;
}

const EXEC_ACTIONS = ["-exec", "-execdir", "-ok", "-okdir"];

function unwrapFind(args: readonly BashWord[]): Unwrapped | undefined {
	const roots = findRoots(args);
	const paths = roots.length > 0 ? roots : [syntheticWord(".", ".")];
	const inner: InnerCommand[] = [];
	for (let i = 0; i < args.length; i++) {
		const action = args[i]?.text ?? "";
		if (!EXEC_ACTIONS.includes(action)) continue;
		const end = execTerminator(args, i);
		inner.push(
			...argvInner(args.slice(i + 1, end), `find ${action}`, {
				placeholder: { token: /\{\}/, paths, mayBeLinks: execMaySeeLinks(args, i) },
				// -execdir runs the command in the directory of each file found, below the roots.
				...(action.endsWith("dir") ? { movedAway: true } : {}),
			}),
		);
		i = end;
	}
	return inner.length === 0 ? undefined : { inner };
}

export const FIND: CommandSpec = {
	readOnly: { options: [], operands: files, custom: findExpressionVerdict },
	refine: refineFind,
	extractPaths: extractFind,
	unwrap: unwrapFind,
};
