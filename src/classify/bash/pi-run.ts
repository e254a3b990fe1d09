/**
 * A bash command that starts pi (adr/0011): `pi -e ./x.ts -p …`, `pi -ne …`, `pi install …`, and pi reached through
 * a path, a link, a package runner or an interpreter (`./node_modules/.bin/pi`, `npx pi`, `node …/pi-coding-agent/
 * dist/cli.js`, a link to pi's cli). Such a child loads whatever its flags, its settings and the project name,
 * none of which the gate can vouch for, so it is a delegation whose child is ungated unless proven otherwise —
 * and nothing here proves it: every such command is `privileged`, for a human alone, and never excluded from the
 * sandbox. Only pi's version and help, which start no session, are left as they are.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { EffectiveCwd } from "../paths.ts";
import type { BashWord } from "./bash-word.ts";

/**
 * pi's package (its cli and its bin link resolve into it) under any install: npm, a git checkout, a global prefix,
 * and as a package runner names it, with a version or tag (`npx -y @earendil-works/pi-coding-agent@latest`).
 */
const PI_PACKAGE = /(^|[/\\])pi-coding-agent([/\\@]|$)/;

/** Arguments with which pi only prints and exits. */
const ONLY_PRINTS: ReadonlySet<string> = new Set(["--version", "-v", "--help", "-h"]);

export interface PiRunQuestion {
	/** The command word as the command receives it. */
	readonly command: BashWord;
	readonly args: readonly BashWord[];
	readonly cwd: EffectiveCwd;
	readonly homeDir: string;
	/** The command is proven read-only: it cannot start anything, whatever its words name. */
	readonly provenRead: boolean;
	/** The command is not in the tier table: a program nobody knows, which may run the words it is given. */
	readonly unknownProgram: boolean;
}

/** Why the command starts pi, in words; null when it does not (as far as its words tell). */
export function piRunReason(question: PiRunQuestion): string | null {
	if (question.provenRead) return null;
	const { command, args } = question;
	if (isPi(command, question)) {
		if (args.length === 1 && ONLY_PRINTS.has(args[0]?.text ?? "")) return null;
		return `${command.text} starts pi`;
	}
	// An interpreter or a runner given pi's cli or its bin link (`node node_modules/.bin/pi`, `bun …/cli.js`), or a
	// program nobody knows given a word that is pi itself (`taskset -c 0 pi -e x.ts`).
	const named = args.find(
		(word) => isPiPath(word, question) || (question.unknownProgram && wordBasename(word) === "pi"),
	);
	return named === undefined ? null : `${command.text} is given ${named.text}, which starts pi`;
}

/** The command word is pi: named `pi`, or a path into pi's package (its real path, a link's target included). */
function isPi(word: BashWord, question: PiRunQuestion): boolean {
	return wordBasename(word) === "pi" || isPiPath(word, question);
}

/**
 * A word that is pi's bin link (a path ending in `/pi`) or lies in pi's package, as written or by its real path
 * (`node fmt`, with `fmt` a link to pi's cli).
 */
function isPiPath(word: BashWord, question: PiRunQuestion): boolean {
	const value = word.pathValue;
	if (value === undefined || value === "" || value.startsWith("-")) return false;
	if (PI_PACKAGE.test(value) || (value.includes("/") && wordBasename(word) === "pi")) return true;
	const absolute = absolutePath(value, question);
	if (absolute === null) return false;
	try {
		return PI_PACKAGE.test(realpathSync.native(absolute));
	} catch {
		return false;
	}
}

function absolutePath(value: string, question: PiRunQuestion): string | null {
	const expanded = value === "~" || value.startsWith("~/") ? question.homeDir + value.slice(1) : value;
	if (path.isAbsolute(expanded)) return expanded;
	return question.cwd.known ? path.resolve(question.cwd.dir, expanded) : null;
}

function wordBasename(word: BashWord): string {
	const value = word.pathValue ?? word.text;
	return path.basename(value.replace(/[/\\]+$/, ""));
}
