/**
 * The registry of the commands the classifier knows, one file each: the engines (read-proof.ts,
 * command-tier-lookup.ts, command-tier-refiners.ts, command-paths.ts, wrappers.ts, classify-bash.ts) read every
 * part of a command from here (adr/0003).
 */ import { ownEntry } from "../../own-entry.ts";
import { ADDUSER } from "./adduser.ts";
import { AG } from "./ag.ts";
import { ALIAS } from "./alias.ts";
import { APK } from "./apk.ts";
import { APT } from "./apt.ts";
import { APT_GET } from "./apt-get.ts";
import { APTITUDE } from "./aptitude.ts";
import { ARCH } from "./arch.ts";
import { ASH } from "./ash.ts";
import { AT } from "./at.ts";
import { AWK, AWK_OTHER_NAMES } from "./awk.ts";
import { AWS } from "./aws.ts";
import { AZ } from "./az.ts";
import { B2SUM } from "./b2sum.ts";
import { BASE64 } from "./base64.ts";
import { BASENAME } from "./basename.ts";
import { BASH } from "./bash.ts";
import { BAT } from "./bat.ts";
import { BATCH } from "./batch.ts";
import { BC } from "./bc.ts";
import { BIOME } from "./biome.ts";
import { BLACK } from "./black.ts";
import { BLKDISCARD } from "./blkdiscard.ts";
import { BREAK } from "./break.ts";
import { BREW } from "./brew.ts";
import { BUILTIN } from "./builtin.ts";
import { BUN } from "./bun.ts";
import { BUNDLE } from "./bundle.ts";
import { BUNX } from "./bunx.ts";
import { BUSYBOX } from "./busybox.ts";
import { BZIP2 } from "./bzip2.ts";
import { CARGO } from "./cargo.ts";
import { CAT } from "./cat.ts";
import { CD } from "./cd.ts";
import { CDK } from "./cdk.ts";
import { CFDISK } from "./cfdisk.ts";
import { CHATTR } from "./chattr.ts";
import { CHGRP } from "./chgrp.ts";
import { CHMOD } from "./chmod.ts";
import { CHOWN } from "./chown.ts";
import { CHPASSWD } from "./chpasswd.ts";
import { CHROOT } from "./chroot.ts";
import { CKSUM } from "./cksum.ts";
import { CLANG } from "./clang.ts";
import { CMAKE } from "./cmake.ts";
import { CMP } from "./cmp.ts";
import { CODE } from "./code.ts";
import { COLON } from "./colon.ts";
import { COLUMN } from "./column.ts";
import { COMM } from "./comm.ts";
import { COMMAND } from "./command.ts";
import type { CommandSpec, CommandTierEntry } from "./command-spec.ts";
import { CONDA } from "./conda.ts";
import { CONTINUE } from "./continue.ts";
import { COPROC } from "./coproc.ts";
import { CP } from "./cp.ts";
import { CRONTAB } from "./crontab.ts";
import { CSRUTIL } from "./csrutil.ts";
import { CURL } from "./curl.ts";
import { CUT } from "./cut.ts";
import { DASH } from "./dash.ts";
import { DATE } from "./date.ts";
import { DD } from "./dd.ts";
import { DECLARE } from "./declare.ts";
import { DEFAULTS } from "./defaults.ts";
import { DELUSER } from "./deluser.ts";
import { DENO } from "./deno.ts";
import { DF } from "./df.ts";
import { DIFF } from "./diff.ts";
import { DIG } from "./dig.ts";
import { DIRNAME } from "./dirname.ts";
import { DISKUTIL } from "./diskutil.ts";
import { DNF } from "./dnf.ts";
import { DOAS } from "./doas.ts";
import { DOCKER, DOCKER_COMPOSE } from "./docker.ts";
import { DOUBLE_BRACKET } from "./double-bracket.ts";
import { DOUBLE_PAREN } from "./double-paren.ts";
import { DPKG } from "./dpkg.ts";
import { DROPDB } from "./dropdb.ts";
import { DROPUSER } from "./dropuser.ts";
import { DSCL } from "./dscl.ts";
import { DU } from "./du.ts";
import { ECHO } from "./echo.ts";
import { EMACS } from "./emacs.ts";
import { ENV } from "./env.ts";
import { ESLINT } from "./eslint.ts";
import { EVAL } from "./eval.ts";
import { EXEC } from "./exec.ts";
import { EXIT } from "./exit.ts";
import { EXPAND } from "./expand.ts";
import { EXPORT } from "./export.ts";
import { EXPR } from "./expr.ts";
import { FALSE } from "./false.ts";
import { FD, FDFIND } from "./fd.ts";
import { FDISK } from "./fdisk.ts";
import { FILE } from "./file.ts";
import { FIND } from "./find.ts";
import { FIREBASE } from "./firebase.ts";
import { FIREWALL_CMD } from "./firewall-cmd.ts";
import { FISH } from "./fish.ts";
import { FLATPAK } from "./flatpak.ts";
import { FLOCK } from "./flock.ts";
import { FLY } from "./fly.ts";
import { FLYCTL } from "./flyctl.ts";
import { FOLD } from "./fold.ts";
import { FTP } from "./ftp.ts";
import { GCC } from "./gcc.ts";
import { GCLOUD } from "./gcloud.ts";
import { GDISK } from "./gdisk.ts";
import { GEM } from "./gem.ts";
import { GETENT } from "./getent.ts";
import { GH } from "./gh.ts";
import { GIT } from "./git.ts";
import { GLAB } from "./glab.ts";
import { GO } from "./go.ts";
import { GREP } from "./grep.ts";
import { GROUPADD } from "./groupadd.ts";
import { GROUPDEL } from "./groupdel.ts";
import { GROUPMOD } from "./groupmod.ts";
import { GROUPS } from "./groups.ts";
import { GSUTIL } from "./gsutil.ts";
import { GUNZIP } from "./gunzip.ts";
import { GZIP } from "./gzip.ts";
import { HALT } from "./halt.ts";
import { HEAD } from "./head.ts";
import { HELM } from "./helm.ts";
import { HEROKU } from "./heroku.ts";
import { HEXDUMP } from "./hexdump.ts";
import { HOST } from "./host.ts";
import { HOSTNAME } from "./hostname.ts";
import { HOSTNAMECTL } from "./hostnamectl.ts";
import { HTTP } from "./http.ts";
import { HTTPS } from "./https.ts";
import { ID } from "./id.ts";
import { IFCONFIG } from "./ifconfig.ts";
import { INIT } from "./init.ts";
import { INSMOD } from "./insmod.ts";
import { INSTALL } from "./install.ts";
import { IONICE } from "./ionice.ts";
import { IP } from "./ip.ts";
import { IP6TABLES } from "./ip6tables.ts";
import { IPTABLES } from "./iptables.ts";
import { JAVA } from "./java.ts";
import { JEST } from "./jest.ts";
import { JOIN } from "./join.ts";
import { JQ } from "./jq.ts";
import { KILL } from "./kill.ts";
import { KILLALL } from "./killall.ts";
import { KSH } from "./ksh.ts";
import { KUBECTL } from "./kubectl.ts";
import { LAUNCHCTL } from "./launchctl.ts";
import { LESS } from "./less.ts";
import { LET } from "./let.ts";
import { LINK } from "./link.ts";
import { LN } from "./ln.ts";
import { LOCAL } from "./local.ts";
import { LOCALECTL } from "./localectl.ts";
import { LS } from "./ls.ts";
import { LUA } from "./lua.ts";
import { LUAJIT } from "./luajit.ts";
import { MAKE } from "./make.ts";
import { MAN } from "./man.ts";
import { MAPFILE } from "./mapfile.ts";
import { MD5SUM } from "./md5sum.ts";
import { MKDIR } from "./mkdir.ts";
import { MKE2FS } from "./mke2fs.ts";
import { MKFIFO } from "./mkfifo.ts";
import { MKFS } from "./mkfs.ts";
import { MKSH } from "./mksh.ts";
import { MKSWAP } from "./mkswap.ts";
import { MKTEMP } from "./mktemp.ts";
import { MOCHA } from "./mocha.ts";
import { MODPROBE } from "./modprobe.ts";
import { MORE } from "./more.ts";
import { MOSH } from "./mosh.ts";
import { MOUNT } from "./mount.ts";
import { MV } from "./mv.ts";
import { NANO } from "./nano.ts";
import { NC } from "./nc.ts";
import { NCAT } from "./ncat.ts";
import { NETCAT } from "./netcat.ts";
import { NETLIFY } from "./netlify.ts";
import { NFT } from "./nft.ts";
import { NICE } from "./nice.ts";
import { NINJA } from "./ninja.ts";
import { NL } from "./nl.ts";
import { NODE, NODEJS } from "./node.ts";
import { NOHUP } from "./nohup.ts";
import { NPM } from "./npm.ts";
import { NPROC } from "./nproc.ts";
import { NPX, PNPX } from "./npx.ts";
import { NSENTER } from "./nsenter.ts";
import { NSLOOKUP } from "./nslookup.ts";
import { NVRAM } from "./nvram.ts";
import { OD } from "./od.ts";
import { OPEN } from "./open.ts";
import { OSASCRIPT } from "./osascript.ts";
import { PACMAN } from "./pacman.ts";
import { PARTED } from "./parted.ts";
import { PASSWD } from "./passwd.ts";
import { PASTE } from "./paste.ts";
import { PATCH } from "./patch.ts";
import { PERL } from "./perl.ts";
import { PFCTL } from "./pfctl.ts";
import { PGREP } from "./pgrep.ts";
import { PHP } from "./php.ts";
import { PING } from "./ping.ts";
import { PIP } from "./pip.ts";
import { PIP3 } from "./pip3.ts";
import { PIPENV } from "./pipenv.ts";
import { PIPX } from "./pipx.ts";
import { PKEXEC } from "./pkexec.ts";
import { PKILL } from "./pkill.ts";
import { PNPM } from "./pnpm.ts";
import { PODMAN } from "./podman.ts";
import { POETRY } from "./poetry.ts";
import { POWEROFF } from "./poweroff.ts";
import { POWERSHELL } from "./powershell.ts";
import { PRETTIER } from "./prettier.ts";
import { PRINTENV } from "./printenv.ts";
import { PRINTF } from "./printf.ts";
import { PS } from "./ps.ts";
import { PULUMI } from "./pulumi.ts";
import { PWD } from "./pwd.ts";
import { PWSH } from "./pwsh.ts";
import { PYTEST } from "./pytest.ts";
import { PYTHON, PYTHON3 } from "./python.ts";
import { READ } from "./read.ts";
import { READARRAY } from "./readarray.ts";
import { READLINK } from "./readlink.ts";
import { READONLY } from "./readonly.ts";
import { REALPATH } from "./realpath.ts";
import { REBOOT } from "./reboot.ts";
import { REDIS_CLI } from "./redis-cli.ts";
import { RETURN } from "./return.ts";
import { REV } from "./rev.ts";
import { RG } from "./rg.ts";
import { RM } from "./rm.ts";
import { RMDIR } from "./rmdir.ts";
import { RMMOD } from "./rmmod.ts";
import { RPM } from "./rpm.ts";
import { RSCRIPT } from "./rscript.ts";
import { RSYNC } from "./rsync.ts";
import { RUBY } from "./ruby.ts";
import { RUFF } from "./ruff.ts";
import { RUNUSER } from "./runuser.ts";
import { SCP } from "./scp.ts";
import { SCREEN } from "./screen.ts";
import { SCRIPT } from "./script.ts";
import { SCUTIL } from "./scutil.ts";
import { SECURITY } from "./security.ts";
import { GSED, SED } from "./sed.ts";
import { SEQ } from "./seq.ts";
import { SERVERLESS } from "./serverless.ts";
import { SERVICE } from "./service.ts";
import { SET } from "./set.ts";
import { SETCAP } from "./setcap.ts";
import { SETSID } from "./setsid.ts";
import { SFDISK } from "./sfdisk.ts";
import { SFTP } from "./sftp.ts";
import { SH } from "./sh.ts";
import { SHA1SUM } from "./sha1sum.ts";
import { SHA224SUM } from "./sha224sum.ts";
import { SHA256SUM } from "./sha256sum.ts";
import { SHA384SUM } from "./sha384sum.ts";
import { SHA512SUM } from "./sha512sum.ts";
import { SHASUM } from "./shasum.ts";
import { SHIFT } from "./shift.ts";
import { SHRED } from "./shred.ts";
import { SHUTDOWN } from "./shutdown.ts";
import { SLEEP } from "./sleep.ts";
import { SLS } from "./sls.ts";
import { SNAP } from "./snap.ts";
import { SOCAT } from "./socat.ts";
import { SORT } from "./sort.ts";
import { DOT, SOURCE } from "./source.ts";
import { SPCTL } from "./spctl.ts";
import { SRM } from "./srm.ts";
import { SS } from "./ss.ts";
import { SSH } from "./ssh.ts";
import { STAT } from "./stat.ts";
import { STDBUF } from "./stdbuf.ts";
import { STRINGS } from "./strings.ts";
import { SU } from "./su.ts";
import { SUDO } from "./sudo.ts";
import { SUDOEDIT } from "./sudoedit.ts";
import { SWAPOFF } from "./swapoff.ts";
import { SWAPON } from "./swapon.ts";
import { SYSCTL } from "./sysctl.ts";
import { SYSTEMCTL } from "./systemctl.ts";
import { TAC } from "./tac.ts";
import { TAIL } from "./tail.ts";
import { TAR } from "./tar.ts";
import { TEE } from "./tee.ts";
import { TELINIT } from "./telinit.ts";
import { TELNET } from "./telnet.ts";
import { TERRAFORM } from "./terraform.ts";
import { TEST } from "./test.ts";
import { TFTP } from "./tftp.ts";
import { TIME } from "./time.ts";
import { TIMEDATECTL } from "./timedatectl.ts";
import { TIMEOUT } from "./timeout.ts";
import { TMUX } from "./tmux.ts";
import { TOFU } from "./tofu.ts";
import { TOUCH } from "./touch.ts";
import { TR } from "./tr.ts";
import { TRACEROUTE } from "./traceroute.ts";
import { TRAP } from "./trap.ts";
import { TREE } from "./tree.ts";
import { TRUE } from "./true.ts";
import { TRUNCATE } from "./truncate.ts";
import { TSC } from "./tsc.ts";
import { TYPE } from "./type.ts";
import { TYPESET } from "./typeset.ts";
import { UFW } from "./ufw.ts";
import { UMOUNT } from "./umount.ts";
import { UNAME } from "./uname.ts";
import { UNEXPAND } from "./unexpand.ts";
import { UNIQ } from "./uniq.ts";
import { UNLINK } from "./unlink.ts";
import { UNSET } from "./unset.ts";
import { UNZIP } from "./unzip.ts";
import { UPTIME } from "./uptime.ts";
import { USERADD } from "./useradd.ts";
import { USERDEL } from "./userdel.ts";
import { USERMOD } from "./usermod.ts";
import { UV } from "./uv.ts";
import { UVX } from "./uvx.ts";
import { VERCEL } from "./vercel.ts";
import { VI } from "./vi.ts";
import { VIM } from "./vim.ts";
import { VISUDO } from "./visudo.ts";
import { VITEST } from "./vitest.ts";
import { WAIT } from "./wait.ts";
import { WATCH } from "./watch.ts";
import { WC } from "./wc.ts";
import { WGET } from "./wget.ts";
import { WHICH } from "./which.ts";
import { WHOAMI } from "./whoami.ts";
import { WIPEFS } from "./wipefs.ts";
import { WRANGLER } from "./wrangler.ts";
import { XARGS } from "./xargs.ts";
import { XDG_OPEN } from "./xdg-open.ts";
import { XH } from "./xh.ts";
import { XXD } from "./xxd.ts";
import { XZ } from "./xz.ts";
import { YARN } from "./yarn.ts";
import { YQ } from "./yq.ts";
import { YUM } from "./yum.ts";
import { ZCAT } from "./zcat.ts";
import { ZIP } from "./zip.ts";
import { ZSH } from "./zsh.ts";
import { ZYPPER } from "./zypper.ts";

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
	getent: GETENT,
	bc: BC,
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
	mktemp: MKTEMP,
	mkfifo: MKFIFO,
	make: MAKE,
	cmake: CMAKE,
	ninja: NINJA,
	tsc: TSC,
	prettier: PRETTIER,
	biome: BIOME,
	vitest: VITEST,
	jest: JEST,
	mocha: MOCHA,
	pytest: PYTEST,
	ruff: RUFF,
	black: BLACK,
	gzip: GZIP,
	gunzip: GUNZIP,
	bzip2: BZIP2,
	xz: XZ,
	patch: PATCH,
	killall: KILLALL,
	pkill: PKILL,
	pgrep: PGREP,
	ss: SS,
	code: CODE,
	vim: VIM,
	vi: VI,
	nano: NANO,
	emacs: EMACS,
	open: OPEN,
	"xdg-open": XDG_OPEN,
	eslint: ESLINT,
	go: GO,
	pip: PIP,
	pip3: PIP3,
	defaults: DEFAULTS,
	http: HTTP,
	https: HTTPS,
	xh: XH,
	nc: NC,
	ncat: NCAT,
	netcat: NETCAT,
	socat: SOCAT,
	telnet: TELNET,
	ftp: FTP,
	tftp: TFTP,
	ping: PING,
	dig: DIG,
	nslookup: NSLOOKUP,
	host: HOST,
	traceroute: TRACEROUTE,
	mosh: MOSH,
	glab: GLAB,
	aws: AWS,
	gcloud: GCLOUD,
	gsutil: GSUTIL,
	az: AZ,
	pulumi: PULUMI,
	heroku: HEROKU,
	vercel: VERCEL,
	netlify: NETLIFY,
	flyctl: FLYCTL,
	fly: FLY,
	wrangler: WRANGLER,
	brew: BREW,
	gem: GEM,
	conda: CONDA,
	firebase: FIREBASE,
	serverless: SERVERLESS,
	sls: SLS,
	cdk: CDK,
	shred: SHRED,
	srm: SRM,
	mkfs: MKFS,
	mke2fs: MKE2FS,
	mkswap: MKSWAP,
	fdisk: FDISK,
	sfdisk: SFDISK,
	gdisk: GDISK,
	cfdisk: CFDISK,
	parted: PARTED,
	wipefs: WIPEFS,
	truncate: TRUNCATE,
	blkdiscard: BLKDISCARD,
	dropdb: DROPDB,
	dropuser: DROPUSER,
	"redis-cli": REDIS_CLI,
	diskutil: DISKUTIL,
	sudoedit: SUDOEDIT,
	runuser: RUNUSER,
	mount: MOUNT,
	umount: UMOUNT,
	systemctl: SYSTEMCTL,
	service: SERVICE,
	launchctl: LAUNCHCTL,
	iptables: IPTABLES,
	ip6tables: IP6TABLES,
	nft: NFT,
	ufw: UFW,
	"firewall-cmd": FIREWALL_CMD,
	pfctl: PFCTL,
	useradd: USERADD,
	userdel: USERDEL,
	usermod: USERMOD,
	groupadd: GROUPADD,
	groupdel: GROUPDEL,
	groupmod: GROUPMOD,
	adduser: ADDUSER,
	deluser: DELUSER,
	passwd: PASSWD,
	chpasswd: CHPASSWD,
	crontab: CRONTAB,
	visudo: VISUDO,
	shutdown: SHUTDOWN,
	reboot: REBOOT,
	halt: HALT,
	poweroff: POWEROFF,
	init: INIT,
	telinit: TELINIT,
	sysctl: SYSCTL,
	modprobe: MODPROBE,
	insmod: INSMOD,
	rmmod: RMMOD,
	chroot: CHROOT,
	nsenter: NSENTER,
	setcap: SETCAP,
	chattr: CHATTR,
	apt: APT,
	"apt-get": APT_GET,
	aptitude: APTITUDE,
	dpkg: DPKG,
	dnf: DNF,
	yum: YUM,
	rpm: RPM,
	pacman: PACMAN,
	zypper: ZYPPER,
	apk: APK,
	snap: SNAP,
	flatpak: FLATPAK,
	swapon: SWAPON,
	swapoff: SWAPOFF,
	hostnamectl: HOSTNAMECTL,
	timedatectl: TIMEDATECTL,
	localectl: LOCALECTL,
	csrutil: CSRUTIL,
	spctl: SPCTL,
	nvram: NVRAM,
	security: SECURITY,
	scutil: SCUTIL,
	dscl: DSCL,
	at: AT,
	batch: BATCH,
	tmux: TMUX,
	screen: SCREEN,
	ip: IP,
	ifconfig: IFCONFIG,
	java: JAVA,
	gcc: GCC,
	clang: CLANG,
	less: LESS,
	more: MORE,
	bat: BAT,
	join: JOIN,
	column: COLUMN,
	hexdump: HEXDUMP,
	xxd: XXD,
	shasum: SHASUM,
	zcat: ZCAT,
	link: LINK,
	man: MAN,
	dd: DD,
	unzip: UNZIP,
	zip: ZIP,
	curl: CURL,
	wget: WGET,
	chmod: CHMOD,
	chown: CHOWN,
	chgrp: CHGRP,
	source: SOURCE,
	".": DOT,
	sudo: SUDO,
	doas: DOAS,
	pkexec: PKEXEC,
	su: SU,
	flock: FLOCK,
	nohup: NOHUP,
	nice: NICE,
	ionice: IONICE,
	stdbuf: STDBUF,
	setsid: SETSID,
	coproc: COPROC,
	timeout: TIMEOUT,
	time: TIME,
	watch: WATCH,
	fd: FD,
	fdfind: FDFIND,
	command: COMMAND,
	builtin: BUILTIN,
	exec: EXEC,
	busybox: BUSYBOX,
	eval: EVAL,
	alias: ALIAS,
	trap: TRAP,
	bash: BASH,
	sh: SH,
	zsh: ZSH,
	dash: DASH,
	ksh: KSH,
	mksh: MKSH,
	ash: ASH,
	fish: FISH,
	python: PYTHON,
	python3: PYTHON3,
	node: NODE,
	nodejs: NODEJS,
	perl: PERL,
	ruby: RUBY,
	php: PHP,
	lua: LUA,
	luajit: LUAJIT,
	Rscript: RSCRIPT,
	osascript: OSASCRIPT,
	pwsh: PWSH,
	powershell: POWERSHELL,
	deno: DENO,
	script: SCRIPT,
};

export function commandSpec(name: string): CommandSpec | undefined {
	return ownEntry(COMMANDS, name);
}

/** Every registered command's tier rows, each command's in its own order (ties between equals depend on it). */
export const REGISTERED_TIER_ROWS: readonly CommandTierEntry[] = [
	...new Set(Object.values(COMMANDS)),
].flatMap((spec) => spec.tiers ?? []);
