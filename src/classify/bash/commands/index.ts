/**
 * The registry of commands with a file of their own: the engines look a command up here first, then in the
 * tables of the commands not yet moved here (read-only-commands.ts, command-tier-table.ts, command-paths.ts,
 * command-tier-refiners.ts, wrappers.ts), which no longer name any command listed here (adr/0003).
 */
import { ownEntry } from "../../own-entry.ts";
import { AG } from "./ag.ts";
import { ARCH } from "./arch.ts";
import { AWK, AWK_OTHER_NAMES } from "./awk.ts";
import { B2SUM } from "./b2sum.ts";
import { BASE64 } from "./base64.ts";
import { BASENAME } from "./basename.ts";
import { BREAK } from "./break.ts";
import { BUN } from "./bun.ts";
import { BUNDLE } from "./bundle.ts";
import { BUNX } from "./bunx.ts";
import { CARGO } from "./cargo.ts";
import { CAT } from "./cat.ts";
import { CD } from "./cd.ts";
import { CKSUM } from "./cksum.ts";
import { CMP } from "./cmp.ts";
import { COLON } from "./colon.ts";
import { COMM } from "./comm.ts";
import type { CommandSpec, CommandTierEntry } from "./command-spec.ts";
import { CONTINUE } from "./continue.ts";
import { CP } from "./cp.ts";
import { CUT } from "./cut.ts";
import { DATE } from "./date.ts";
import { DECLARE } from "./declare.ts";
import { DF } from "./df.ts";
import { DIFF } from "./diff.ts";
import { DIRNAME } from "./dirname.ts";
import { DOCKER, DOCKER_COMPOSE } from "./docker.ts";
import { DOUBLE_BRACKET } from "./double-bracket.ts";
import { DOUBLE_PAREN } from "./double-paren.ts";
import { DU } from "./du.ts";
import { ECHO } from "./echo.ts";
import { ENV } from "./env.ts";
import { EXIT } from "./exit.ts";
import { EXPAND } from "./expand.ts";
import { EXPORT } from "./export.ts";
import { EXPR } from "./expr.ts";
import { FALSE } from "./false.ts";
import { FILE } from "./file.ts";
import { FIND } from "./find.ts";
import { FOLD } from "./fold.ts";
import { GH } from "./gh.ts";
import { GIT } from "./git.ts";
import { GREP } from "./grep.ts";
import { GROUPS } from "./groups.ts";
import { HEAD } from "./head.ts";
import { HELM } from "./helm.ts";
import { HOSTNAME } from "./hostname.ts";
import { ID } from "./id.ts";
import { INSTALL } from "./install.ts";
import { JQ } from "./jq.ts";
import { KILL } from "./kill.ts";
import { KUBECTL } from "./kubectl.ts";
import { LET } from "./let.ts";
import { LN } from "./ln.ts";
import { LOCAL } from "./local.ts";
import { LS } from "./ls.ts";
import { MAPFILE } from "./mapfile.ts";
import { MD5SUM } from "./md5sum.ts";
import { MKDIR } from "./mkdir.ts";
import { MV } from "./mv.ts";
import { NL } from "./nl.ts";
import { NPM } from "./npm.ts";
import { NPROC } from "./nproc.ts";
import { NPX, PNPX } from "./npx.ts";
import { OD } from "./od.ts";
import { PASTE } from "./paste.ts";
import { PIPENV } from "./pipenv.ts";
import { PIPX } from "./pipx.ts";
import { PNPM } from "./pnpm.ts";
import { PODMAN } from "./podman.ts";
import { POETRY } from "./poetry.ts";
import { PRINTENV } from "./printenv.ts";
import { PRINTF } from "./printf.ts";
import { PS } from "./ps.ts";
import { PWD } from "./pwd.ts";
import { READ } from "./read.ts";
import { READARRAY } from "./readarray.ts";
import { READLINK } from "./readlink.ts";
import { READONLY } from "./readonly.ts";
import { REALPATH } from "./realpath.ts";
import { RETURN } from "./return.ts";
import { REV } from "./rev.ts";
import { RG } from "./rg.ts";
import { RM } from "./rm.ts";
import { RMDIR } from "./rmdir.ts";
import { RSYNC } from "./rsync.ts";
import { SCP } from "./scp.ts";
import { GSED, SED } from "./sed.ts";
import { SEQ } from "./seq.ts";
import { SET } from "./set.ts";
import { SFTP } from "./sftp.ts";
import { SHA1SUM } from "./sha1sum.ts";
import { SHA224SUM } from "./sha224sum.ts";
import { SHA256SUM } from "./sha256sum.ts";
import { SHA384SUM } from "./sha384sum.ts";
import { SHA512SUM } from "./sha512sum.ts";
import { SHIFT } from "./shift.ts";
import { SLEEP } from "./sleep.ts";
import { SORT } from "./sort.ts";
import { SSH } from "./ssh.ts";
import { STAT } from "./stat.ts";
import { STRINGS } from "./strings.ts";
import { TAC } from "./tac.ts";
import { TAIL } from "./tail.ts";
import { TAR } from "./tar.ts";
import { TEE } from "./tee.ts";
import { TERRAFORM } from "./terraform.ts";
import { TEST } from "./test.ts";
import { TOFU } from "./tofu.ts";
import { TOUCH } from "./touch.ts";
import { TR } from "./tr.ts";
import { TREE } from "./tree.ts";
import { TRUE } from "./true.ts";
import { TYPE } from "./type.ts";
import { TYPESET } from "./typeset.ts";
import { UNAME } from "./uname.ts";
import { UNEXPAND } from "./unexpand.ts";
import { UNIQ } from "./uniq.ts";
import { UNLINK } from "./unlink.ts";
import { UNSET } from "./unset.ts";
import { UPTIME } from "./uptime.ts";
import { UV } from "./uv.ts";
import { UVX } from "./uvx.ts";
import { WAIT } from "./wait.ts";
import { WC } from "./wc.ts";
import { WHICH } from "./which.ts";
import { WHOAMI } from "./whoami.ts";
import { XARGS } from "./xargs.ts";
import { YARN } from "./yarn.ts";
import { YQ } from "./yq.ts";

const COMMANDS: Readonly<Record<string, CommandSpec>> = {
	git: GIT,
	find: FIND,
	sed: SED,
	gsed: GSED,
	docker: DOCKER,
	"docker-compose": DOCKER_COMPOSE,
	podman: PODMAN,
	grep: GREP,
	egrep: GREP,
	fgrep: GREP,
	tar: TAR,
	xargs: XARGS,
	env: ENV,
	ssh: SSH,
	scp: SCP,
	sftp: SFTP,
	rsync: RSYNC,
	kubectl: KUBECTL,
	kill: KILL,
	awk: AWK,
	gawk: AWK_OTHER_NAMES,
	mawk: AWK_OTHER_NAMES,
	nawk: AWK_OTHER_NAMES,
	yq: YQ,
	rg: RG,
	ag: AG,
	helm: HELM,
	terraform: TERRAFORM,
	tofu: TOFU,
	gh: GH,
	cargo: CARGO,
	npm: NPM,
	pnpm: PNPM,
	yarn: YARN,
	bun: BUN,
	pipx: PIPX,
	uv: UV,
	poetry: POETRY,
	pipenv: PIPENV,
	bundle: BUNDLE,
	npx: NPX,
	bunx: BUNX,
	uvx: UVX,
	pnpx: PNPX,
	cat: CAT,
	head: HEAD,
	tac: TAC,
	tail: TAIL,
	wc: WC,
	ls: LS,
	tree: TREE,
	stat: STAT,
	file: FILE,
	du: DU,
	realpath: REALPATH,
	readlink: READLINK,
	diff: DIFF,
	cmp: CMP,
	comm: COMM,
	sort: SORT,
	uniq: UNIQ,
	cut: CUT,
	nl: NL,
	rev: REV,
	paste: PASTE,
	fold: FOLD,
	strings: STRINGS,
	od: OD,
	base64: BASE64,
	jq: JQ,
	md5sum: MD5SUM,
	sha1sum: SHA1SUM,
	sha256sum: SHA256SUM,
	sha512sum: SHA512SUM,
	test: TEST,
	"[": TEST,
	basename: BASENAME,
	dirname: DIRNAME,
	tr: TR,
	which: WHICH,
	type: TYPE,
	echo: ECHO,
	printf: PRINTF,
	sleep: SLEEP,
	df: DF,
	pwd: PWD,
	whoami: WHOAMI,
	id: ID,
	groups: GROUPS,
	uname: UNAME,
	arch: ARCH,
	nproc: NPROC,
	hostname: HOSTNAME,
	date: DATE,
	uptime: UPTIME,
	ps: PS,
	printenv: PRINTENV,
	cd: CD,
	set: SET,
	true: TRUE,
	false: FALSE,
	expr: EXPR,
	exit: EXIT,
	return: RETURN,
	break: BREAK,
	continue: CONTINUE,
	shift: SHIFT,
	wait: WAIT,
	seq: SEQ,
	b2sum: B2SUM,
	sha224sum: SHA224SUM,
	sha384sum: SHA384SUM,
	cksum: CKSUM,
	unset: UNSET,
	read: READ,
	declare: DECLARE,
	typeset: TYPESET,
	local: LOCAL,
	export: EXPORT,
	readonly: READONLY,
	mapfile: MAPFILE,
	readarray: READARRAY,
	let: LET,
	":": COLON,
	"[[": DOUBLE_BRACKET,
	"((": DOUBLE_PAREN,
	expand: EXPAND,
	unexpand: UNEXPAND,
	cp: CP,
	mv: MV,
	install: INSTALL,
	ln: LN,
	touch: TOUCH,
	mkdir: MKDIR,
	tee: TEE,
	rm: RM,
	rmdir: RMDIR,
	unlink: UNLINK,
};

export function commandSpec(name: string): CommandSpec | undefined {
	return ownEntry(COMMANDS, name);
}

/** Every registered command's tier rows, each command's in its own order (ties between equals depend on it). */
export const REGISTERED_TIER_ROWS: readonly CommandTierEntry[] = [
	...new Set(Object.values(COMMANDS)),
].flatMap((spec) => spec.tiers ?? []);
