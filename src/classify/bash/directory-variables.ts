/**
 * The variables that steer where a path leads, which the gate cannot read from the command line.
 *
 * `cd agent` goes to the first directory of `$CDPATH` holding an `agent`, before `./agent`: with
 * `CDPATH=~/.pi cd agent && echo x > settings.json` the write lands in pi's agent dir, not the cwd. The gate
 * cannot know the variable's value when pi's environment sets it, or when the command may set it (by name, or by
 * a computed name: `export $'\x43DPATH=…'`, `read`, `printf -v`, `eval`, a command named by an expansion), so a
 * `cd` that searches it then leads somewhere known only at run time.
 */

/** bash searches `$CDPATH` for a directory that does not start with `/`, `./` or `../` and is not `.` or `..`. */
export function searchesCdPath(directory: string): boolean {
	return !/^(\/|\.\.?(\/|$))/.test(directory) && !directory.startsWith("~");
}

/**
 * Builtins that set a variable whose name they are given, and forms that run code the text does not show: any
 * of them may set `CDPATH` without the name appearing in the command.
 */
const SETS_VARIABLES_BY_NAME =
	/(?:^|[\s;&|(){}`!])(?:export|declare|typeset|local|readonly|read|printf|mapfile|readarray|getopts|eval|source|builtin|command|enable|exec|alias|shopt)(?=[\s;&|)]|$)/m;
/**
 * A command word that starts with an expansion or a quote names its command (and so its builtin) at run time;
 * `. file` runs a file's code in this shell.
 */
const COMPUTED_COMMAND = /(?:^|[;&|({\n!]|\b(?:then|do|else|elif|time))\s*(?:[$`"'\\]|\.\s)/m;

export function cdPathMayBeSet(source: string, env: Readonly<Record<string, string | undefined>>): boolean {
	if (env.CDPATH !== undefined || env.BASH_ENV !== undefined) return true;
	return source.includes("CDPATH") || setsVariablesByName(source);
}

/**
 * `~`, `$HOME` and a bare `cd` follow `$HOME` as the command has it: `HOME=.git; echo x > ~/config` writes
 * `.git/config`. When the command may set it, they lead somewhere known only at run time.
 */
export function homeMayBeSet(source: string): boolean {
	return /(?:^|[^\w$])HOME\+?=/m.test(source) || setsVariablesByName(source);
}

/** `$'…'` can spell any text, an assignment in code run by `bash -c` among it. */
function setsVariablesByName(source: string): boolean {
	return SETS_VARIABLES_BY_NAME.test(source) || COMPUTED_COMMAND.test(source) || source.includes("$'");
}
