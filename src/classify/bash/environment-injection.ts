/**
 * Environment variables that make a program load or run other code (`LD_PRELOAD=evil.so ls`,
 * `GIT_SSH_COMMAND=… git fetch`). Setting one for a command makes that command privileged, because what runs is
 * no longer what the command line says. Setting `PATH`, or any variable not proven harmless, makes it at least
 * write.
 */
import type { TierRaise } from "../tier-raise.ts";

export interface EnvironmentAssignment {
	readonly name: string;
	readonly value: string;
	/** The value is fully known before run time. */
	readonly literal: boolean;
}

const ALWAYS_INJECTS: ReadonlySet<string> = new Set([
	"LD_PRELOAD",
	"LD_AUDIT",
	"LD_LIBRARY_PATH",
	"DYLD_INSERT_LIBRARIES",
	"DYLD_LIBRARY_PATH",
	"DYLD_FRAMEWORK_PATH",
	"BASH_ENV",
	"ENV",
	"PROMPT_COMMAND",
	"PS4",
	"SHELLOPTS",
	"BASHOPTS",
	"GIT_SSH",
	"GIT_SSH_COMMAND",
	"GIT_EXTERNAL_DIFF",
	"GIT_ASKPASS",
	"SSH_ASKPASS",
	"GIT_EXEC_PATH",
	"GIT_CONFIG_PARAMETERS",
	"GIT_CONFIG_GLOBAL",
	"GIT_CONFIG_SYSTEM",
	"PERL5OPT",
	"RUBYOPT",
	"PYTHONSTARTUP",
	"PYTHONINSPECT",
]);

/** Programs started by these are usually an editor or pager; harmless values are let through. */
const PROGRAM_VARIABLES: ReadonlySet<string> = new Set([
	"EDITOR",
	"VISUAL",
	"GIT_EDITOR",
	"GIT_SEQUENCE_EDITOR",
	"PAGER",
	"GIT_PAGER",
	"MANPAGER",
]);
const HARMLESS_PROGRAMS: ReadonlySet<string> = new Set([
	"true",
	":",
	"cat",
	"less",
	"more",
	"vi",
	"vim",
	"nvim",
	"nano",
	"emacs",
	"code --wait",
]);

/**
 * The variables a read may set and stay read: they choose language, time zone, colours and terminal size, and
 * no program reads a path to code or configuration from them. Any other variable is not proven harmless
 * (`HOME=/tmp/x git log` reads another ~/.gitconfig), so setting it makes the command at least `write`.
 */
const HARMLESS_VARIABLES: ReadonlySet<string> = new Set([
	"NO_COLOR",
	"CLICOLOR",
	"CLICOLOR_FORCE",
	"FORCE_COLOR",
	"COLORTERM",
	"COLUMNS",
	"LINES",
	"TERM",
	"GREP_COLORS",
	"LS_COLORS",
	"TIME_STYLE",
	"QUOTING_STYLE",
	"BLOCK_SIZE",
	"POSIXLY_CORRECT",
]);

function provenHarmless(name: string, value: string, literal: boolean): boolean {
	if (name === "TZ") return literal && isZoneName(value);
	if (isLocaleVariable(name)) return literal && LOCALE_NAMES.test(value);
	if (HARMLESS_VARIABLES.has(name)) return true;
	return PROGRAM_VARIABLES.has(name) && literal && HARMLESS_PROGRAMS.has(value.trim());
}

function isLocaleVariable(name: string): boolean {
	return name === "LANG" || name === "LANGUAGE" || /^LC_[A-Z]+$/.test(name);
}

/**
 * Locale names (`C.UTF-8`, `en_US.utf8@euro`, `de:fr` for LANGUAGE). Not a path: gettext looks for its message
 * catalogs under `/usr/share/locale/<LANGUAGE>/`, so `LANGUAGE=../../../work/x` loads a catalog a repository
 * ships, whose translations are format strings the program prints with.
 */
const LOCALE_NAMES = /^[A-Za-z0-9_.@:+-]*$/;

/**
 * `TZ` names a file that every program reads when it shows a time (`ls -l`, `date`): an absolute path
 * (`TZ=/dev/tty`, `TZ=:/dev/tty`) or a `..` out of the zone directory opens any file, a terminal or another
 * device among them. A zone name (`UTC`, `Europe/Paris`, `:Asia/Tokyo`) or a POSIX rule (`EST5EDT,M3.2.0`) does
 * not.
 */
export function isZoneName(value: string): boolean {
	const zone = value.startsWith(":") ? value.slice(1) : value;
	return !zone.startsWith("/") && !zone.split("/").includes("..");
}

const NODE_LOADS_CODE = /(^|\s)(-r|--require|--import|--loader|--experimental-loader)(\s|=|$)/;

export function environmentInjection(assignments: readonly EnvironmentAssignment[]): TierRaise[] {
	const raises: TierRaise[] = [];
	for (const { name, value, literal } of assignments) {
		const injects =
			ALWAYS_INJECTS.has(name) ||
			name.startsWith("GIT_CONFIG_KEY_") ||
			(PROGRAM_VARIABLES.has(name) && !(literal && HARMLESS_PROGRAMS.has(value.trim()))) ||
			(name === "NODE_OPTIONS" && (!literal || NODE_LOADS_CODE.test(value)));
		if (injects)
			raises.push({ tier: "privileged", reason: `sets ${name}, which makes the command run other code` });
		else if (name === "TZ" && literal && !isZoneName(value))
			raises.push({
				tier: "privileged",
				reason: `sets TZ to the path ${value}, which a program showing a time opens (a terminal or another device as well as a file)`,
			});
		else if (name !== "PATH" && !provenHarmless(name, value, literal)) {
			raises.push({
				tier: "write",
				reason: `sets ${name}, which is not among the variables proven harmless (locale, time zone, colours, terminal size)`,
			});
		}
		// A read-only command could be any program once PATH changes (`PATH=. ls` runs ./ls).
		if (name === "PATH") {
			raises.push({ tier: "write", reason: "sets PATH, so the command name may resolve to another program" });
		}
	}
	return raises;
}
