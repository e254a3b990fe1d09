/**
 * git: everything the classifier knows about it. Its global options (one list, read by the read proof and by the
 * tier lookup, which matches `git -C dir push -f` as `git push -f`), the read-only subcommands with their
 * options, the tiers of the rest, the raises a pattern cannot express, and its paths (none: its operands are
 * revisions and pathspecs inside the repository, which the guarded names cover, adr/0014).
 */
import type { TierRaise } from "../../tier-raise.ts";
import { afterGlobalOptions, hasShortFlag, spellsLongOption } from "../option-scan.ts";
import type { OptionSpec, ReadOnlyCommand } from "../read-only-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, raising, valueTaking } from "./option-notation.ts";
import { files, text } from "./read-only-helpers.ts";

/** `git -c key=value`: only keys that change how output looks, never what runs (no pager, editor, driver). */
const GIT_SAFE_CONFIG =
	/^(color(\.[a-z.]+)?|core\.quotepath|core\.abbrev|diff\.(noprefix|mnemonicprefix|renames|algorithm|context|interhunkcontext|relative|srcprefix|dstprefix)|log\.(decorate|abbrevcommit|date|follow)|column\.(ui|status|branch|tag)|status\.(short|branch|showuntrackedfiles|relativepaths|aheadbehind)|grep\.(linenumber|patterntype|extendedregexp|fullname|column)|advice\.[a-z]+|i18n\.logoutputencoding|pager\.[a-z-]+=false)$/;

function gitConfigCheck(value: string): TierRaise | null {
	const key = value.split("=")[0]?.toLowerCase() ?? "";
	const keyAndValue = value.toLowerCase();
	return GIT_SAFE_CONFIG.test(key) || GIT_SAFE_CONFIG.test(keyAndValue)
		? null
		: { tier: "privileged", reason: `git -c ${key} is not known to leave what git runs unchanged` };
}

/** Options every git log-like command accepts for formatting and limiting: none writes or runs anything. */
const GIT_LOG_FORMAT = opts(
	"--oneline",
	"--graph",
	"--decorate[=]",
	"--no-decorate",
	"--all",
	"--branches[=]",
	"--tags[=]",
	"--remotes[=]",
	"--stat[=]",
	"--shortstat",
	"--numstat",
	"--summary",
	"--name-only",
	"--name-status",
	"-p -u --patch",
	"-s --no-patch",
	"-U[=] --unified[=]",
	"--raw",
	"--pretty[=] --format=",
	"--abbrev-commit",
	"--no-abbrev-commit",
	"--abbrev[=]",
	"--date=",
	"--relative-date",
	"-n= --max-count=",
	"--skip=",
	"--since= --after=",
	"--until= --before=",
	"--author=",
	"--committer=",
	"--grep=",
	"--all-match",
	"--invert-grep",
	"-i --regexp-ignore-case",
	"-E --extended-regexp",
	"-F --fixed-strings",
	"-S=",
	"-G=",
	"--pickaxe-all",
	"--follow",
	"--reverse",
	"--no-merges",
	"--merges",
	"--first-parent",
	"--ancestry-path",
	"--topo-order",
	"--date-order",
	"--author-date-order",
	"--left-right",
	"--cherry-pick",
	"--cherry-mark",
	"--boundary",
	"--simplify-by-decoration",
	"--full-history",
	"--color[=]",
	"--no-color",
	"--word-diff[=]",
	"--word-diff-regex=",
	"--color-words[=]",
	"--color-moved[=]",
	"-w --ignore-all-space",
	"-b --ignore-space-change",
	"--ignore-blank-lines",
	"-M[=] --find-renames[=]",
	"-C[=] --find-copies[=]",
	"--no-renames",
	"--diff-filter=",
	"--relative[=]",
	"--full-index",
	"--binary",
	"--no-ext-diff",
	"--no-textconv",
	"--minimal",
	"--patience",
	"--histogram",
	"--diff-algorithm=",
	"-z",
	"--no-prefix",
	"--src-prefix=",
	"--dst-prefix=",
	"--mailmap",
	"--no-mailmap",
	"--walk-reflogs -g",
	"--left-only",
	"--right-only",
	"--not",
	"--root",
	"-L=",
	"-m",
	"-c",
	"--cc",
	"--dirstat[=]",
	"--check",
	"--exit-code",
	"--quiet",
	"--line-prefix=",
);

const gitOutputRaise = raising("write", "git --output writes the output to a file", "--output=", "write");
const gitExtDiff = raising(
	"privileged",
	"git --ext-diff runs the external diff program its config names",
	"--ext-diff",
);
const gitTextconv = raising(
	"privileged",
	"git --textconv runs the conversion programs its config names",
	"--textconv",
);
const gitSignature = raising("privileged", "git --show-signature runs gpg", "--show-signature");

const gitLog: ReadOnlyCommand = {
	options: [...GIT_LOG_FORMAT, gitOutputRaise, gitExtDiff, gitTextconv, gitSignature],
	operands: text,
	numericOption: true,
};

const gitDiff: ReadOnlyCommand = {
	options: [
		...GIT_LOG_FORMAT,
		...opts(
			"--cached --staged",
			"--merge-base",
			"--no-index",
			"-R",
			"--ita-invisible-in-index",
			"-1",
			"-2",
			"-3",
		),
		gitOutputRaise,
		gitExtDiff,
		gitTextconv,
	],
	// `git diff A B` compares two files when one lies outside the work tree (or with --no-index), so every operand
	// may be a file it reads: `git diff --no-index /dev/tty /dev/null`, the gate's inbox.
	operands: files,
};

const gitStatus: ReadOnlyCommand = {
	options: opts(
		"-s --short",
		"-b --branch",
		"--show-stash",
		"--porcelain[=]",
		"--long",
		"-v --verbose",
		"-u[=] --untracked-files[=]",
		"--ignored[=]",
		"--ignore-submodules[=]",
		"-z",
		"--column[=]",
		"--no-column",
		"--ahead-behind",
		"--no-ahead-behind",
		"--renames",
		"--no-renames",
		"--find-renames[=]",
	),
	operands: text,
};

/** Listing forms only: a name operand (which would create, rename or delete) only after `--list`. */
function gitListing(listOptions: readonly string[], what: string): ReadOnlyCommand {
	return {
		options: opts(...listOptions),
		operands: text,
		check: (parsed) =>
			parsed.operands.length === 0 ||
			parsed.options.some((o) => o.spec.names.includes("--list") || o.spec.names.includes("-l"))
				? null
				: { tier: "write", reason: `git ${what} with a name creates or changes one` },
	};
}

const gitBranch = gitListing(
	[
		"-a --all",
		"-r --remotes",
		"-l --list",
		"-v --verbose",
		"--show-current",
		"--contains=",
		"--no-contains=",
		"--merged[=]",
		"--no-merged[=]",
		"--sort=",
		"--format=",
		"--points-at=",
		"--color[=]",
		"--no-color",
		"--column[=]",
		"--abbrev[=]",
		"--omit-empty",
		"-i --ignore-case",
	],
	"branch",
);

const gitTag = gitListing(
	[
		"-l --list",
		"-n[=]",
		"--contains=",
		"--no-contains=",
		"--merged=",
		"--no-merged=",
		"--sort=",
		"--format=",
		"--points-at=",
		"--column[=]",
		"-i --ignore-case",
	],
	"tag",
);

const gitShow: ReadOnlyCommand = { ...gitLog };
const textOnly = (...specs: readonly string[]): ReadOnlyCommand => ({
	options: opts(...specs),
	operands: text,
});

const GIT_SUBCOMMANDS: Readonly<Record<string, ReadOnlyCommand>> = {
	status: gitStatus,
	log: gitLog,
	show: gitShow,
	diff: gitDiff,
	shortlog: {
		...gitLog,
		// Its own meanings first: `-n` numbers authors here, where git log takes a count.
		options: [
			...opts("-s --summary", "-n --numbered", "-e --email", "-c --committer", "--group="),
			...gitLog.options,
		],
	},
	whatchanged: gitLog,
	branch: gitBranch,
	tag: gitTag,
	"rev-parse": textOnly(
		"--abbrev-ref[=]",
		"--short[=]",
		"--verify",
		"-q --quiet",
		"--show-toplevel",
		"--show-prefix",
		"--show-cdup",
		"--git-dir",
		"--git-common-dir",
		"--absolute-git-dir",
		"--is-inside-work-tree",
		"--is-inside-git-dir",
		"--is-bare-repository",
		"--symbolic",
		"--symbolic-full-name",
		"--all",
		"--branches[=]",
		"--tags[=]",
		"--remotes[=]",
		"--default=",
		"--show-object-format[=]",
		"--sq",
		"--not",
	),
	"rev-list": {
		...gitLog,
		options: [...gitLog.options, ...opts("--count", "--objects", "--max-parents=", "--min-parents=")],
	},
	"ls-files": textOnly(
		"-c --cached",
		"-d --deleted",
		"-m --modified",
		"-o --others",
		"-i --ignored",
		"-s --stage",
		"-u --unmerged",
		"-k --killed",
		"-z",
		"--exclude-standard",
		"-x= --exclude=",
		"--full-name",
		"--error-unmatch",
		"--directory",
		"--no-empty-directory",
		"--eol",
		"--deduplicate",
		"--format=",
		"-t",
		"-v",
		"--abbrev[=]",
	),
	"ls-tree": textOnly(
		"-r",
		"-d",
		"-t",
		"-l --long",
		"-z",
		"--name-only --name-status",
		"--object-only",
		"--full-name",
		"--full-tree",
		"--abbrev[=]",
		"--format=",
	),
	blame: textOnly(
		"-L=",
		"-l",
		"-t",
		"-s",
		"-e --show-email",
		"-w",
		"-M[=]",
		"-C[=]",
		"-p --porcelain",
		"--line-porcelain",
		"--incremental",
		"-f --show-name",
		"-n --show-number",
		"--root",
		"--date=",
		"-c",
		"--abbrev[=]",
		"--color-lines",
		"--color-by-age",
		"--progress",
		"--no-progress",
		"--since=",
		"-S=@",
		"--reverse",
		"--first-parent",
		"--ignore-rev=",
		"--ignore-revs-file=@",
	),
	grep: {
		options: [
			...opts(
				"--cached",
				"--no-index",
				"--untracked",
				"--no-exclude-standard",
				"--exclude-standard",
				"--recurse-submodules",
				"-a --text",
				"-i --ignore-case",
				"-I",
				"--max-depth=",
				"-r --recursive",
				"--no-recursive",
				"-w --word-regexp",
				"-v --invert-match",
				"-h",
				"-H",
				"--full-name",
				"-E --extended-regexp",
				"-G --basic-regexp",
				"-F --fixed-strings",
				"-P --perl-regexp",
				"-n --line-number",
				"--column",
				"-l --files-with-matches --name-only",
				"-L --files-without-match",
				"-z --null",
				"-o --only-matching",
				"-c --count",
				"--color[=]",
				"--no-color",
				"--break",
				"--heading",
				"-p --show-function",
				"-A= --after-context=",
				"-B= --before-context=",
				"-C= --context=",
				"-W --function-context",
				"-m= --max-count=",
				"--threads=",
				"-f=@",
				"-e=",
				"--and",
				"--or",
				"--not",
				"--all-match",
				"-q --quiet",
			),
			raising(
				"privileged",
				"git grep -O opens the matches in a pager program",
				"-O[=] --open-files-in-pager[=]",
			),
		],
		operands: text,
		numericOption: true,
	},
	describe: textOnly(
		"--all",
		"--tags",
		"--contains",
		"--abbrev[=]",
		"--candidates=",
		"--exact-match",
		"--debug",
		"--long",
		"--match=",
		"--exclude=",
		"--always",
		"--first-parent",
		"--dirty[=]",
		"--broken[=]",
	),
	"show-ref": textOnly(
		"--head",
		"--heads --branches",
		"--tags",
		"-d --dereference",
		"-s[=] --hash[=]",
		"--verify",
		"--abbrev[=]",
		"-q --quiet",
		"--exists",
	),
	"cat-file": textOnly(
		"-t",
		"-s",
		"-e",
		"-p",
		"--batch[=]",
		"--batch-check[=]",
		"--batch-all-objects",
		"--follow-symlinks",
		"--use-mailmap",
		"--no-use-mailmap",
		"--unordered",
		"-Z",
	),
	"merge-base": textOnly("-a --all", "--octopus", "--independent", "--is-ancestor", "--fork-point"),
	"name-rev": textOnly(
		"--tags",
		"--refs=",
		"--exclude=",
		"--all",
		"--annotate-stdin",
		"--name-only",
		"--no-undefined",
		"--always",
	),
	"for-each-ref": textOnly(
		"--count=",
		"--shell",
		"--perl",
		"--python",
		"--tcl",
		"--sort=",
		"--format=",
		"--color[=]",
		"--points-at=",
		"--merged[=]",
		"--no-merged[=]",
		"--contains[=]",
		"--no-contains[=]",
		"--ignore-case",
		"--omit-empty",
		"--exclude=",
	),
	"count-objects": textOnly("-v --verbose", "-H --human-readable"),
	"check-ignore": textOnly("-q --quiet", "-v --verbose", "--no-index", "-n --non-matching", "-z", "--stdin"),
	"check-attr": textOnly("-a --all", "--cached", "--stdin", "-z", "--source="),
	remote: {
		options: opts("-v --verbose"),
		operands: text,
		check: (parsed) => {
			const [action] = parsed.operands;
			if (action === undefined) return null;
			return action.literal && action.text === "get-url"
				? null
				: {
						tier: "write",
						reason: `git remote ${action.text} is not known to be read-only (show and update reach the network)`,
					};
		},
	},
	config: {
		options: opts(
			"--get",
			"--get-all",
			"--get-regexp",
			"--get-urlmatch",
			"-l --list",
			"--show-origin",
			"--show-scope",
			"--name-only",
			"--null -z",
			"--global",
			"--system",
			"--local",
			"--worktree",
			"-f=@ --file=@",
			"--blob=",
			"--type=",
			"--bool",
			"--int",
			"--bool-or-int",
			"--path",
			"--expiry-date",
			"--includes",
			"--no-includes",
			"--default=",
		),
		operands: text,
		check: (parsed) => {
			const reading = parsed.options.some((o) =>
				o.spec.names.some((n) =>
					["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list"].includes(n),
				),
			);
			const [first] = parsed.operands;
			return reading ||
				(first?.literal === true && first.text === "get") ||
				(first?.literal === true && first.text === "list")
				? null
				: { tier: "write", reason: "git config without --get or --list sets a value" };
		},
	},
	// `git reflog` alone is `git reflog show`, a `git log -g`: log's options and their raises. The other actions
	// (`expire`, `delete`) change the reflog, and a ref where the action goes is not proven either.
	reflog: {
		options: [],
		operands: text,
		optionsFirst: true,
		bare: true,
		subcommands: { show: gitLog, exists: { options: [], operands: { kind: "text", max: 1 } } },
	},
	// The action must come first: `git stash -u -- list` is `git stash push -u -- list`, which removes `list`.
	stash: {
		options: [],
		operands: text,
		optionsFirst: true,
		subcommands: {
			list: { options: GIT_LOG_FORMAT, operands: text },
			show: { options: GIT_LOG_FORMAT, operands: { kind: "text", max: 1 } },
		},
	},
	worktree: {
		options: opts("--porcelain", "-v --verbose", "-z", "--expire="),
		operands: text,
		check: (parsed) => {
			const [action] = parsed.operands;
			return action?.literal === true && action.text === "list"
				? null
				: { tier: "write", reason: "only git worktree list is read-only" };
		},
	},
	// Not `help`: `git help X` runs man and groff on a page it finds by name (a repository file, given `git/..`).
	version: textOnly("--build-options"),
};

/**
 * git's options before its subcommand, for both the read proof (which accepts or raises each) and the tier
 * lookup (which skips them, and their values, to find the subcommand).
 */
const GIT_GLOBAL_OPTIONS: readonly OptionSpec[] = [
	...opts(
		"--no-pager -P",
		"--no-replace-objects",
		"--literal-pathspecs",
		"--glob-pathspecs",
		"--noglob-pathspecs",
		"--icase-pathspecs",
		"--no-optional-locks",
		"--namespace=",
		"--no-advice",
		"--version",
	),
	{
		names: ["--help"],
		onlyWithoutSubcommand:
			"git --help NAME is git help NAME, which runs man (or the viewer git's config names)",
	},
	// Another repository brings its own config, whose keys can make a read run programs (core.fsmonitor,
	// diff drivers, gpg.program): reading it is proven safe only for the session's own, guarded repository.
	...["-C=", "--git-dir=", "--work-tree=", "--bare"].map((spec) =>
		raising("write", "git reads another repository, whose own config can make git run programs", spec),
	),
	{ names: ["-c"], value: "required", check: gitConfigCheck },
	// Its value is attached only (`--exec-path` alone prints the directory).
	raising(
		"privileged",
		"git --exec-path= makes git run its helpers from another directory",
		"--exec-path[=]",
	),
	raising("privileged", "git --config-env sets configuration from the environment", "--config-env="),
	raising("write", "git --super-prefix is git's own, for its submodule recursion", "--super-prefix="),
];
const GIT_GLOBAL_VALUE = valueTaking(GIT_GLOBAL_OPTIONS);

/** The arguments from the subcommand on (`-C x push -f` → `push -f`). */
function afterGitGlobalOptions(args: readonly string[]): readonly string[] {
	return afterGlobalOptions(args, GIT_GLOBAL_VALUE);
}

const git: ReadOnlyCommand = {
	options: GIT_GLOBAL_OPTIONS,
	operands: text,
	optionsFirst: true,
	configFromDirectory:
		"git runs in another directory here, and a repository found there can name programs for git to run (core.fsmonitor, diff.external)",
	subcommands: Object.fromEntries(
		Object.entries(GIT_SUBCOMMANDS).map(([name, spec]) => [name, withSignatureFormatsRefused(spec)]),
	),
	bare: true,
};

/**
 * A pretty format or ref format that shows a signature's status (`%G?`, `%GS`, `%(signature)`) makes git run
 * the signature verifier (gpg, gpgsm or ssh-keygen, which may fetch keys), as `--show-signature` does.
 */
function withSignatureFormatsRefused(spec: ReadOnlyCommand): ReadOnlyCommand {
	const check = (value: string): TierRaise | null =>
		/%G|%\(signature/.test(value)
			? { tier: "privileged", reason: `the format \`${value}\` shows signatures, which runs gpg` }
			: null;
	return {
		...spec,
		options: spec.options.map((option) =>
			option.names.includes("--format") || option.names.includes("--pretty") ? { ...option, check } : option,
		),
		...(spec.subcommands === undefined
			? {}
			: {
					subcommands: Object.fromEntries(
						Object.entries(spec.subcommands).map(([name, sub]) => [name, withSignatureFormatsRefused(sub)]),
					),
				}),
	};
}

/**
 * Tiers of git beyond a read (command-tier-lookup.ts): every subcommand not proven read is at least write; the
 * most specific pattern wins, and the refiner below raises what a pattern cannot see (`push -f` in a cluster).
 */
const GIT_TIERS = [
	...rows("write", [
		"git *",
		"git add *",
		"git commit *",
		"git checkout *",
		"git switch *",
		"git restore --staged *",
		"git stash *",
		"git merge *",
		"git rebase *",
		"git cherry-pick *",
		"git revert *",
		"git mv *",
		"git rm *",
		"git init *",
		"git apply *",
		"git am *",
		"git worktree *",
		"git notes *",
		"git bisect *",
		"git branch *",
		"git tag *",
		"git remote *",
		"git config *",
		"git reset *",
		"git gc *",
		"git archive *",
		"git format-patch *",
	]),
	// Read-only in effect, but they reach another machine.
	...rows("network-egress", [
		"git push *",
		"git fetch *",
		"git pull *",
		"git clone *",
		"git ls-remote *",
		"git remote update *",
		"git submodule *",
		"git lfs *",
		"git send-email *",
	]),
	...rows("destructive", [
		"git reset --hard*",
		"git reset * --hard*",
		"git clean *",
		"git checkout -- *",
		"git checkout -f*",
		"git checkout --force*",
		"git checkout .",
		"git restore *",
		"git stash drop *",
		"git stash clear *",
		"git branch -D *",
		"git push --force*",
		"git push -f*",
		"git filter-branch *",
		"git filter-repo *",
		"git reflog expire *",
		"git reflog delete *",
		"git update-ref -d *",
		"git gc --prune=now*",
		"git prune *",
	]),
];

/** git config keys whose value git runs as a program. */
const GIT_CODE_KEYS =
	/^(alias\..*|core\.(sshcommand|pager|editor|fsmonitor|hookspath|askpass|gitproxy)|diff\..*\.(textconv|command)|diff\.external|merge\..*\.driver|filter\..*|credential\..*helper|credential\.helper|sequence\.editor|gpg\..*program|gpg\.program|pager\..*|protocol\.ext\.allow|uploadpack\.packobjectshook|remote\..*\.(uploadpack|receivepack))$/i;

function refineGit(args: readonly string[]): TierRaise | undefined {
	const global = args.slice(0, args.length - afterGitGlobalOptions(args).length);
	for (let i = 0; i < global.length; i++) {
		const option = global[i] ?? "";
		const value = option === "-c" ? global[i + 1] : option.startsWith("-c") ? option.slice(2) : undefined;
		const key = value?.split("=")[0];
		if (key !== undefined && GIT_CODE_KEYS.test(key)) {
			return { tier: "privileged", reason: `git -c ${key} makes git run a program` };
		}
	}
	const [sub = "", ...rest] = afterGitGlobalOptions(args);
	if (rest.some((arg) => /^--(upload-pack|receive-pack|exec)(=|$)/.test(arg) || arg.startsWith("ext::"))) {
		return { tier: "privileged", reason: `git ${sub} is told to run a program` };
	}
	switch (sub) {
		case "push":
			if (
				hasShortFlag(rest, "f", "o") ||
				hasShortFlag(rest, "d", "o") ||
				rest.some(
					(arg) =>
						/^--(force|force-with-lease|force-if-includes|mirror|delete|prune)(=|$)/.test(arg) ||
						arg.startsWith("+") ||
						arg.startsWith(":"),
				)
			) {
				return { tier: "destructive", reason: "git push overwrites or deletes remote history" };
			}
			return undefined;
		case "branch": {
			const deletes = hasShortFlag(rest, "d") || rest.includes("--delete");
			const forced = hasShortFlag(rest, "f") || rest.includes("--force");
			return hasShortFlag(rest, "D") || (deletes && forced)
				? { tier: "destructive", reason: "git branch -D deletes unmerged work" }
				: undefined;
		}
		case "checkout":
			return rest.includes("--") ||
				rest.includes(".") ||
				hasShortFlag(rest, "f", "bB") ||
				rest.includes("--force")
				? { tier: "destructive", reason: "git checkout of paths discards uncommitted changes" }
				: undefined;
		case "restore":
			return hasShortFlag(rest, "W", "sp") || rest.includes("--worktree")
				? { tier: "destructive", reason: "git restore --worktree discards uncommitted changes" }
				: undefined;
		case "init":
		case "clone":
			// A repository outside a `.git` directory: no guarded name covers the writes that then set its config
			// (`git init --bare pkg && echo … >> pkg/config`), and git finds it from below (adr/0014).
			return rest.some((arg) =>
				["--bare", "--mirror", "--separate-git-dir"].some((full) => spellsLongOption(arg, full)),
			)
				? {
						tier: "privileged",
						reason: `git ${sub} makes a repository outside a .git directory, whose config git runs programs from`,
					}
				: undefined;
		case "config": {
			if (rest.some((arg) => /^--(get|list|show|get-all|get-regexp)/.test(arg) || arg === "-l"))
				return undefined;
			const key = rest.find((arg) => !arg.startsWith("-"));
			return key !== undefined && GIT_CODE_KEYS.test(key)
				? { tier: "privileged", reason: `git config ${key} makes git run a program` }
				: undefined;
		}
		default:
			return undefined;
	}
}

export const GIT: CommandSpec = {
	readOnly: git,
	tiers: GIT_TIERS,
	globalOptions: GIT_GLOBAL_OPTIONS,
	refine: refineGit,
	paths: { operands: "none" },
};
