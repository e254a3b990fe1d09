import type { BashWord } from "./bash-word.ts";
import { opts, raising } from "./commands/option-notation.ts";
import {
	checksum,
	files,
	HELP,
	inert,
	noArguments,
	none,
	readsListedFiles,
	simpleFilter,
	text,
} from "./commands/read-only-helpers.ts";
import { dateStringCheck } from "./date-string.ts";
import type { ReadOnlyCommand, ReadVerdict } from "./read-only-spec.ts";

/**
 * `test` and `[` only compare and print, except that bash evaluates the subscript of a `-v`/`-R` operand as
 * arithmetic (`test -v 'a[$(cmd)]'` runs cmd). A word becomes `-v` at run time too (`${x:--v}`, `"$_"` after
 * `echo -v`), and an unquoted expansion or glob becomes several words (`-v` and `a[$(cmd)]`, from `$_` or from a
 * repository's file names). So: no word may become several, and whatever follows a word that is or may become
 * `-v`/`-R` must be a literal with no subscript but a number.
 */
const testBuiltin: ReadOnlyCommand = {
	options: [],
	operands: text,
	custom: (args) => {
		for (let i = 0; i < args.length; i++) {
			const word = args[i];
			if (word === undefined) continue;
			const computed = !word.literal && !word.cannotBecomeOption;
			if (computed && !isOneQuotedWord(word))
				return refusedTest(`\`${word.text}\` can become several words, among them -v and a subscripted name`);
			if (!computed && word.text !== "-v" && word.text !== "-R") continue;
			const operand = args[i + 1];
			if (operand === undefined) continue;
			if (!operand.literal || !/^[^[]*$|^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\])?$/.test(operand.text))
				return refusedTest(
					`test ${word.text} evaluates the subscript of \`${operand.text}\` as arithmetic, which can run commands`,
				);
		}
		return { read: true, paths: [] };
	},
};

/** `"$x"`, `"${x%y}"`: one double-quoted word, which bash does not split (`"$@"`, `"${a[@]}"` it does). */
function isOneQuotedWord(word: BashWord): boolean {
	return word.node.type === "string" && !/\$\{?[@*]|\[[@*]\]/.test(word.text);
}

function refusedTest(reason: string): ReadVerdict {
	return { read: false, tier: "privileged", reason, paths: [] };
}

// ---------------------------------------------------------------------------------------------------------------
// Files and directories

const df: ReadOnlyCommand = {
	options: opts(
		"-a --all",
		"-B= --block-size=",
		"-h --human-readable",
		"-H --si",
		"-i --inodes",
		"-k",
		"-l --local",
		// Not --sync: it flushes every file system before listing.
		"--no-sync",
		"--output[=]",
		"-P --portability",
		"--total",
		"-t= --type=",
		"-T --print-type",
		"-x= --exclude-type=",
		...HELP,
	),
	operands: files,
};

// ---------------------------------------------------------------------------------------------------------------
// Text processing (each reads its files and prints)

const tr: ReadOnlyCommand = {
	options: opts("-c -C --complement", "-d --delete", "-s --squeeze-repeats", "-t --truncate-set1", ...HELP),
	operands: text,
};

// ---------------------------------------------------------------------------------------------------------------
// The system, the shell

const pwd: ReadOnlyCommand = { options: opts("-L", "-P"), operands: none, optionsFirst: true };
const id: ReadOnlyCommand = {
	options: opts(
		"-a",
		"-Z --context",
		"-g --group",
		"-G --groups",
		"-n --name",
		"-r --real",
		"-u --user",
		"-z --zero",
		...HELP,
	),
	operands: { kind: "text", max: 1 },
};

const uname: ReadOnlyCommand = {
	options: opts(
		"-a --all",
		"-s --kernel-name",
		"-n --nodename",
		"-r --kernel-release",
		"-v --kernel-version",
		"-m --machine",
		"-p --processor",
		"-i --hardware-platform",
		"-o --operating-system",
		...HELP,
	),
	operands: none,
};

const hostname: ReadOnlyCommand = {
	// Not -a/-A/-d/-f/-i: they resolve the name, which asks a DNS server.
	options: opts("-I --all-ip-addresses", "-s --short", ...HELP),
	// `hostname NAME` sets the name.
	operands: none,
};

const date: ReadOnlyCommand = {
	options: [
		{ names: ["-d", "--date"], value: "required", check: dateStringCheck },
		...opts(
			"-I[=] --iso-8601[=]",
			"-R --rfc-email",
			"--rfc-3339=",
			"-r=@ --reference=@",
			"-u --utc --universal",
			"--debug",
			"--resolution",
			...HELP,
		),
		raising("privileged", "date -s sets the system clock", "-s= --set="),
		// Each line of the file is a date string, which can name a time zone file (see dateStringCheck).
		raising(
			"write",
			"date -f reads date strings that can name a time zone file to open",
			"-f= --file=",
			"read",
		),
	],
	operands: { kind: "text", max: 1 },
	check: (parsed) => {
		const operand = parsed.operands[0];
		if (operand === undefined) return null;
		if (!operand.literal)
			return { tier: "write", reason: `date's operand \`${operand.text}\` is computed at run time` };
		return operand.text.startsWith("+")
			? null
			: { tier: "privileged", reason: `date ${operand.text} sets the system clock` };
	},
};

const basename: ReadOnlyCommand = {
	options: opts("-a --multiple", "-s= --suffix=", "-z --zero", ...HELP),
	operands: text,
};

const seq: ReadOnlyCommand = {
	options: opts("-f= --format=", "-s= --separator=", "-w --equal-width", ...HELP),
	operands: text,
	optionsFirst: true,
};

const printf: ReadOnlyCommand = {
	options: [raising("write", "printf -v assigns a shell variable", "-v=")],
	operands: text,
	optionsFirst: true,
};

const which: ReadOnlyCommand = { options: opts("-a", "-s"), operands: text };
const type: ReadOnlyCommand = {
	options: opts("-a", "-f", "-p", "-P", "-t"),
	operands: text,
	optionsFirst: true,
};

const cd: ReadOnlyCommand = {
	options: opts("-L", "-P", "-e", "-@"),
	operands: { kind: "files", max: 1 },
	optionsFirst: true,
};

/** `set -e`, `set -o pipefail`: options that only change how this shell stops on errors. */
const SAFE_SET_OPTIONS = new Set(["errexit", "nounset", "pipefail", "noclobber", "noglob", "notify"]);
const set: ReadOnlyCommand = {
	options: [
		...opts("-e", "+e", "-u", "+u", "-C", "+C", "-f", "+f", "-b", "+b"),
		{
			names: ["-o", "+o"],
			value: "required",
			check: (value) =>
				SAFE_SET_OPTIONS.has(value)
					? null
					: { tier: "write", reason: `set -o ${value} changes how this shell runs commands` },
		},
	],
	operands: none,
	optionsFirst: true,
	plusOptions: true,
};

const ps: ReadOnlyCommand = {
	options: opts(
		..."AaCcdeFfHjLlMmNrSTtuVvwXxyZ".split("").map((c) => `-${c}`),
		"-C=",
		"-G=",
		"-g=",
		"-O=",
		"-o=",
		"-p= --pid=",
		"--ppid=",
		"-q=",
		"-s= --sid=",
		"-t= --tty=",
		"-U=",
		"-u= --user=",
		"--sort=",
		"--forest",
		"--no-headers --no-heading",
		"--cols= --columns= --width=",
		"--headers",
		...HELP,
	),
	// BSD-style option words without a dash: `ps aux`.
	operands: text,
	check: (parsed) => {
		const bad = parsed.operands.find(
			(operand) => !operand.literal || !/^[aeflmrsuvwxAHSTZ]+$/.test(operand.text),
		);
		return bad === undefined
			? null
			: { tier: "write", reason: `\`${bad.text}\` is not a ps option known to be read-only` };
	},
};

const printenv: ReadOnlyCommand = { options: opts("-0 --null", ...HELP), operands: text };

/**
 * `tool --version` (or `--help`) alone, exactly: nothing else of these tools is proven read-only here. A short
 * spelling counts only where the tool documents it as the version (`python -v` is verbose mode and then runs
 * the program on standard input). Left out on purpose: launchers that read the project before printing a
 * version, so a repository decides what runs (`cargo`/`rustc`/`rustup` read `rust-toolchain.toml`, whose `path`
 * names the program; `yarn` runs the file `.yarnrc`'s `yarn-path` names; `pnpm`, `go`, `uv`, `bun` and `deno`
 * may download and run the version the project pins; `npm` reads the project's `.npmrc`, which can point it at
 * any host, and writes logs), and `gh`, which checks for updates over the network.
 */
const VERSION_TOOLS: Readonly<Record<string, readonly string[]>> = {
	node: ["-v"],
	python: ["-V"],
	python3: ["-V"],
	pip: ["-V"],
	pip3: ["-V"],
	java: [],
	ruby: [],
	gem: [],
	perl: ["-v"],
	php: ["-v"],
	make: ["-v"],
	cmake: [],
	gcc: [],
	clang: [],
	tsc: ["-v"],
	curl: ["-V"],
	wget: ["-V"],
	fd: ["-V"],
};

function versionOnly(short: readonly string[]): ReadOnlyCommand {
	return {
		options: opts("--version", "--help", ...short),
		operands: none,
		check: (parsed) =>
			parsed.options.length === 1
				? null
				: { tier: "write", reason: "only `--version` or `--help` alone is proven read-only" },
	};
}

export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlyCommand>> = {
	...Object.fromEntries(Object.entries(VERSION_TOOLS).map(([tool, short]) => [tool, versionOnly(short)])),
	df,
	basename,
	dirname: { options: opts("-z --zero", ...HELP), operands: text },
	tr,
	expand: simpleFilter("-i --initial", "-t= --tabs="),
	unexpand: simpleFilter("-a --all", "--first-only", "-t= --tabs="),
	sha224sum: checksum,
	sha384sum: checksum,
	b2sum: { ...checksum, options: [...checksum.options, ...opts("-l= --length=")] },
	cksum: {
		options: [
			...opts(
				"-a= --algorithm=",
				"--base64",
				"-l= --length=",
				"--raw",
				"--tag",
				"--untagged",
				"-z --zero",
				...HELP,
			),
			readsListedFiles("-c --check", "cksum --check"),
		],
		operands: files,
	},
	seq,
	pwd,
	whoami: noArguments,
	id,
	groups: { options: opts(...HELP), operands: text },
	uname,
	arch: noArguments,
	nproc: { options: opts("--all", "--ignore=", ...HELP), operands: none },
	hostname,
	date,
	uptime: { options: opts("-p --pretty", "-s --since", ...HELP), operands: none },
	ps,
	printenv,
	which,
	type,
	cd,
	set,
	echo: inert,
	printf,
	true: inert,
	false: inert,
	":": inert,
	test: testBuiltin,
	"[": testBuiltin,
	// The arithmetic a `[[ … ]]` or `(( … ))` may do is judged where the walk finds it (bash-walk.ts).
	"[[": inert,
	"((": inert,
	expr: inert,
	sleep: inert,
	exit: inert,
	return: inert,
	break: inert,
	continue: inert,
	shift: inert,
	wait: { options: opts("-n", "-f"), operands: text, optionsFirst: true },
};
