import type { BashWord } from "./bash-word.ts";
import { opts, raising } from "./commands/option-notation.ts";
import {
	always,
	files,
	followsLinks,
	HELP,
	has,
	none,
	readsListedFiles,
	text,
} from "./commands/read-only-helpers.ts";
import { dateStringCheck } from "./date-string.ts";
import type { ReadOnlyCommand, ReadVerdict } from "./read-only-spec.ts";

/** Commands that read no options from their words and can do nothing but print (echo, test, true). */
const inert: ReadOnlyCommand = {
	options: [],
	operands: text,
	custom: () => ({ read: true, paths: [] }),
};

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

const ls: ReadOnlyCommand = {
	options: opts(
		...[..."aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1"].map((c) => `-${c}`),
		"-I= --ignore=",
		"-T= --tabsize=",
		"-w= --width=",
		"--all",
		"--almost-all",
		"--author",
		"--escape",
		"--block-size=",
		"--ignore-backups",
		"--color[=]",
		"--directory",
		"--dired",
		"--classify[=]",
		"--file-type",
		"--format=",
		"--full-time",
		"--group-directories-first",
		"--no-group",
		"--human-readable",
		"--si",
		"--dereference-command-line",
		"--dereference-command-line-symlink-to-dir",
		"--hide=",
		"--hyperlink[=]",
		"--indicator-style=",
		"--inode",
		"--kibibytes",
		"--dereference",
		"--literal",
		"--numeric-uid-gid",
		"--hide-control-chars",
		"--show-control-chars",
		"--quote-name",
		"--quoting-style=",
		"--reverse",
		"--recursive",
		"--size",
		"--sort=",
		"--time=",
		"--time-style=",
		"--context",
		"--zero",
		...HELP,
	),
	operands: files,
	descends: (parsed) => has(parsed, "-R", "--recursive"),
	check: (parsed) =>
		has(parsed, "-R", "--recursive") && has(parsed, "-L", "--dereference")
			? followsLinks("ls -RL lists the directories", "ls -R")
			: null,
};

const cat: ReadOnlyCommand = {
	options: opts(
		"-A --show-all",
		"-b --number-nonblank",
		"-e",
		"-E --show-ends",
		"-n --number",
		"-s --squeeze-blank",
		"-t",
		"-T --show-tabs",
		"-u",
		"-v --show-nonprinting",
		...HELP,
	),
	operands: files,
};

const headTail = (extra: readonly string[]): ReadOnlyCommand => ({
	options: opts(
		"-c= --bytes=",
		"-n= --lines=",
		"-q --quiet --silent",
		"-v --verbose",
		"-z --zero-terminated",
		...extra,
		...HELP,
	),
	operands: files,
	numericOption: true,
});

const wc: ReadOnlyCommand = {
	options: [
		...opts(
			"-c --bytes",
			"-m --chars",
			"-l --lines",
			"-L --max-line-length",
			"-w --words",
			"--total=",
			...HELP,
		),
		readsListedFiles("--files0-from=", "wc --files0-from"),
	],
	operands: files,
};

const tree: ReadOnlyCommand = {
	options: [
		...opts(
			...[..."adfxiASnCpugshDFqNQrtcUvJX"].map((c) => `-${c}`),
			"-L=",
			"-P=",
			"-I=",
			"-T=",
			"-H=",
			"--noreport",
			"--inodes",
			"--device",
			"--dirsfirst",
			"--filesfirst",
			"--du",
			"--si",
			"--prune",
			"--matchdirs",
			"--ignore-case",
			"--gitignore",
			"--info",
			"--infofile=@",
			"--nolinks",
			"--fromfile",
			"--charset=",
			"--filelimit=",
			"--timefmt=",
			"--sort=",
			...HELP,
		),
		raising("write", "tree -o writes its output to a file", "-o=", "write"),
		raising("write", "tree -R writes a listing file into every directory", "-R"),
		{ names: ["-l"], raise: followsLinks("tree -l lists the directories", "tree without -l") },
	],
	operands: files,
	clusterValuesFollow: true,
	descends: always,
};

const stat: ReadOnlyCommand = {
	options: opts(
		"-L --dereference",
		"-f --file-system",
		"-c= --format=",
		"--printf=",
		"-t --terse",
		"--cached=",
		...HELP,
	),
	operands: files,
};

const file: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --brief",
			"-c --checking-printout",
			"-E",
			"-h --no-dereference",
			"-i --mime",
			"--mime-type",
			"--mime-encoding",
			"-k --keep-going",
			"-L --dereference",
			"-N --no-pad",
			"-n --no-buffer",
			"-r --raw",
			"-s --special-files",
			"-0 --print0",
			"--extension",
			"--apple",
			"-e= --exclude=",
			"--exclude-quiet=",
			"-F= --separator=",
			"-m=@ --magic-file=@",
			"-P= --parameter=",
			"-v",
			...HELP,
		),
		raising("write", "file -C compiles a magic file, writing it", "-C --compile"),
		readsListedFiles("-f= --files-from=", "file -f"),
		// file -z runs the decompressor for formats libmagic has no library for (`zstd -cd`, `lzip -cd`, found on
		// PATH), as rg -z does.
		raising("write", "file -z runs decompression programs", "-z --uncompress -Z --uncompress-noreport"),
	],
	operands: files,
};

const du: ReadOnlyCommand = {
	options: [
		...opts(
			"-0 --null",
			"-a --all",
			"--apparent-size",
			"-B= --block-size=",
			"-b --bytes",
			"-c --total",
			"-D --dereference-args",
			"-d= --max-depth=",
			"-H",
			"-h --human-readable",
			"--inodes",
			"-k",
			"-l --count-links",
			"-m",
			"-P --no-dereference",
			"-S --separate-dirs",
			"--si",
			"-s --summarize",
			"-t= --threshold=",
			"--time[=]",
			"--time-style=",
			"-X=@ --exclude-from=@",
			"--exclude=",
			"-x --one-file-system",
			...HELP,
		),
		readsListedFiles("--files0-from=", "du --files0-from"),
		{ names: ["-L", "--dereference"], raise: followsLinks("du -L lists the directories", "du without -L") },
	],
	operands: files,
	descends: always,
};

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

const realpath: ReadOnlyCommand = {
	options: opts(
		"-e --canonicalize-existing",
		"-m --canonicalize-missing",
		"-L --logical",
		"-P --physical",
		"-q --quiet",
		"-s --strip --no-symlinks",
		"-z --zero",
		"--relative-to=@",
		"--relative-base=@",
		...HELP,
	),
	operands: files,
};

const readlink: ReadOnlyCommand = {
	options: opts(
		"-f --canonicalize",
		"-e --canonicalize-existing",
		"-m --canonicalize-missing",
		"-n --no-newline",
		"-q --quiet",
		"-s --silent",
		"-v --verbose",
		"-z --zero",
		...HELP,
	),
	operands: files,
};

// ---------------------------------------------------------------------------------------------------------------
// Text processing (each reads its files and prints)

const diff: ReadOnlyCommand = {
	options: opts(
		"-i --ignore-case",
		"--ignore-file-name-case",
		"--no-ignore-file-name-case",
		"-E --ignore-tab-expansion",
		"-Z --ignore-trailing-space",
		"-b --ignore-space-change",
		"-w --ignore-all-space",
		"-B --ignore-blank-lines",
		"-I= --ignore-matching-lines=",
		"--strip-trailing-cr",
		"-a --text",
		"-c",
		"-C=",
		"--context[=]",
		"-u",
		"-U=",
		"--unified[=]",
		"-e --ed",
		"-n --rcs",
		"--normal",
		"-y --side-by-side",
		"-W= --width=",
		"--left-column",
		"--suppress-common-lines",
		"-p --show-c-function",
		"-F= --show-function-line=",
		"--label=",
		"-t --expand-tabs",
		"-T --initial-tab",
		"--tabsize=",
		"--suppress-blank-empty",
		"-r --recursive",
		"--no-dereference",
		"-N --new-file",
		"--unidirectional-new-file",
		"-x= --exclude=",
		"-X=@ --exclude-from=@",
		"-S= --starting-file=",
		"--from-file=@",
		"--to-file=@",
		"-s --report-identical-files",
		"-q --brief",
		"--color[=]",
		"--palette=",
		"-d --minimal",
		"--speed-large-files",
		"--horizon-lines=",
		"-v",
		...HELP,
	),
	operands: files,
	descends: (parsed) => has(parsed, "-r", "--recursive"),
	opensEntries: (parsed) => !has(parsed, "--no-dereference"),
	check: (parsed) =>
		has(parsed, "-r", "--recursive") && !has(parsed, "--no-dereference")
			? followsLinks("diff -r reads the files", "diff -r --no-dereference")
			: null,
};

const cmp: ReadOnlyCommand = {
	options: opts(
		"-b --print-bytes",
		"-i= --ignore-initial=",
		"-l --verbose",
		"-n= --bytes=",
		"-s --quiet --silent",
		"-v",
		...HELP,
	),
	operands: files,
};

const comm: ReadOnlyCommand = {
	options: opts(
		"-1",
		"-2",
		"-3",
		"--check-order",
		"--nocheck-order",
		"--output-delimiter=",
		"--total",
		"-z --zero-terminated",
		...HELP,
	),
	operands: files,
};

const sort: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --ignore-leading-blanks",
			"-d --dictionary-order",
			"-f --ignore-case",
			"-g --general-numeric-sort",
			"-i --ignore-nonprinting",
			"-M --month-sort",
			"-h --human-numeric-sort",
			"-n --numeric-sort",
			"-R --random-sort",
			"--random-source=@",
			"-r --reverse",
			"--sort=",
			"-V --version-sort",
			"--batch-size=",
			"-c",
			"-C",
			"--check[=]",
			"--debug",
			"-k= --key=",
			"-m --merge",
			"-s --stable",
			"-S= --buffer-size=",
			"-t= --field-separator=",
			"-u --unique",
			"-z --zero-terminated",
			"--parallel=",
			...HELP,
		),
		raising("write", "sort -o writes its output to a file", "-o= --output=", "write"),
		readsListedFiles("--files0-from=", "sort --files0-from"),
		raising(
			"write",
			"sort -T writes temporary files into the directory it names",
			"-T= --temporary-directory=",
			"write",
		),
		raising("privileged", "sort --compress-program runs a program", "--compress-program="),
	],
	operands: files,
};

const uniq: ReadOnlyCommand = {
	options: opts(
		"-c --count",
		"-d --repeated",
		"-D",
		"--all-repeated[=]",
		"-f= --skip-fields=",
		"--group[=]",
		"-i --ignore-case",
		"-s= --skip-chars=",
		"-u --unique",
		"-z --zero-terminated",
		"-w= --check-chars=",
		...HELP,
	),
	operands: { kind: "files", max: 1, beyondMax: { tier: "write", reason: "uniq writes its second operand" } },
	numericOption: true,
};

const cut: ReadOnlyCommand = {
	options: opts(
		"-b= --bytes=",
		"-c= --characters=",
		"-d= --delimiter=",
		"-f= --fields=",
		"-n",
		"--complement",
		"-s --only-delimited",
		"--output-delimiter=",
		"-z --zero-terminated",
		...HELP,
	),
	operands: files,
};

const tr: ReadOnlyCommand = {
	options: opts("-c -C --complement", "-d --delete", "-s --squeeze-repeats", "-t --truncate-set1", ...HELP),
	operands: text,
};

const paste: ReadOnlyCommand = {
	options: opts("-d= --delimiters=", "-s --serial", "-z --zero-terminated", ...HELP),
	operands: files,
};

const simpleFilter = (...specs: readonly string[]): ReadOnlyCommand => ({
	options: opts(...specs, ...HELP),
	operands: files,
});

const nl: ReadOnlyCommand = simpleFilter(
	"-b= --body-numbering=",
	"-d= --section-delimiter=",
	"-f= --footer-numbering=",
	"-h= --header-numbering=",
	"-i= --line-increment=",
	"-l= --join-blank-lines=",
	"-n= --number-format=",
	"-p --no-renumber",
	"-s= --number-separator=",
	"-v= --starting-line-number=",
	"-w= --number-width=",
);

const checksum: ReadOnlyCommand = {
	options: [
		...opts(
			"-b --binary",
			"--tag",
			"-t --text",
			"-z --zero",
			"--ignore-missing",
			"--quiet",
			"--status",
			"--strict",
			"-w --warn",
			...HELP,
		),
		readsListedFiles("-c --check", "a checksum --check"),
	],
	operands: files,
};

const od: ReadOnlyCommand = simpleFilter(
	"-A= --address-radix=",
	"--endian=",
	"-j= --skip-bytes=",
	"-N= --read-bytes=",
	"-S= --strings[=]",
	"-t= --format=",
	"-v --output-duplicates",
	"-w[=] --width[=]",
	"--traditional",
	...[..."abcdfilosx"].map((c) => `-${c}`),
);

const strings: ReadOnlyCommand = {
	...simpleFilter(
		"-a --all",
		"-d --data",
		"-f --print-file-name",
		"-n= --bytes=",
		"-t= --radix=",
		"-o",
		"-e= --encoding=",
		"-w --include-all-whitespace",
		"-s= --output-separator=",
		"-U= --unicode=",
		"-T= --target=",
		"-h",
		"-v -V",
	),
	numericOption: true,
};

const base64: ReadOnlyCommand = {
	options: opts("-d --decode", "-i --ignore-garbage", "-w= --wrap=", ...HELP),
	operands: { kind: "files", max: 1 },
};

const jq: ReadOnlyCommand = {
	options: [
		...opts(
			"-n --null-input",
			"-R --raw-input",
			"-s --slurp",
			"-c --compact-output",
			"-r --raw-output",
			"--raw-output0",
			"-j --join-output",
			"-a --ascii-output",
			"-S --sort-keys",
			"-C --color-output",
			"-M --monochrome-output",
			"--tab",
			"--indent=",
			"--unbuffered",
			"--stream",
			"--stream-errors",
			"--seq",
			"-e --exit-status",
			"-f=@ --from-file=@",
			"-L=",
			"-V",
			"-h",
			"--build-configuration",
			...HELP,
		),
		{ names: ["--arg", "--argjson"], values: 2 },
		{ names: ["--slurpfile", "--rawfile"], values: 2, valuePath: "read" },
	],
	// A jq filter cannot write a file or run a program; after it come the input files.
	operands: { kind: "pattern-files", patternFrom: ["-f", "--from-file"] },
};

// ---------------------------------------------------------------------------------------------------------------
// The system, the shell

const pwd: ReadOnlyCommand = { options: opts("-L", "-P"), operands: none, optionsFirst: true };
const noArguments: ReadOnlyCommand = { options: opts(...HELP), operands: none };

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
	ls,
	cat,
	tac: simpleFilter("-b --before", "-r --regex", "-s= --separator="),
	head: headTail([]),
	tail: headTail([
		"-f",
		"-F",
		"--follow[=]",
		"--retry",
		"--pid=",
		"-s= --sleep-interval=",
		"--max-unchanged-stats=",
	]),
	wc,
	nl,
	tree,
	stat,
	file,
	du,
	df,
	realpath,
	readlink,
	basename,
	dirname: { options: opts("-z --zero", ...HELP), operands: text },
	diff,
	cmp,
	comm,
	sort,
	uniq,
	cut,
	tr,
	paste,
	fold: simpleFilter("-b --bytes", "-s --spaces", "-w= --width="),
	rev: simpleFilter(),
	expand: simpleFilter("-i --initial", "-t= --tabs="),
	unexpand: simpleFilter("-a --all", "--first-only", "-t= --tabs="),
	md5sum: checksum,
	sha1sum: checksum,
	sha224sum: checksum,
	sha256sum: checksum,
	sha384sum: checksum,
	sha512sum: checksum,
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
	od,
	strings,
	base64,
	jq,
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
