/**
 * What a sed program does, read the way GNU sed reads it, for the read-only proof: a program is `read` only when
 * every command in it is known to neither write a file nor run one. `w`/`W` (and `s///w`) write, `e` (and
 * `s///e`) run a command, `v`/unknown letters are not proven; anything this reader cannot follow is not proven
 * either. `r`/`R` read a file, which is a read.
 */

export type SedVerdict =
	| { readonly ok: true; readonly reads: readonly string[] }
	| { readonly ok: false; readonly reason: string; readonly writes: boolean };

/** Commands that take no argument. */
const PLAIN = new Set(["p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "l", "=", "z", "F", "{", "}"]);
/** Commands that take an optional exit code. */
const EXIT = new Set(["q", "Q"]);
/** Commands whose argument is a label. */
const BRANCH = new Set(["b", "t", "T", ":"]);
/** Commands whose argument is text to the end of the line (`a text`, `i\`, `c\`). */
const TEXT = new Set(["a", "i", "c"]);

export function analyzeSedScript(script: string): SedVerdict {
	const reads: string[] = [];
	let i = 0;
	const fail = (reason: string, writes = false): SedVerdict => ({ ok: false, reason, writes });
	const skipBlanks = (): void => {
		while (i < script.length && /[ \t]/.test(script[i] ?? "")) i++;
	};
	const toLineEnd = (): string => {
		const end = script.indexOf("\n", i);
		const text = script.slice(i, end < 0 ? script.length : end);
		i = end < 0 ? script.length : end;
		return text;
	};
	while (i < script.length) {
		skipBlanks();
		const char = script[i];
		if (char === undefined) break;
		if (char === "\n" || char === ";") {
			i++;
			continue;
		}
		if (char === "#") {
			toLineEnd();
			continue;
		}
		const afterAddress = skipAddresses(script, i);
		if (afterAddress === null) return fail(`the address at "${script.slice(i, i + 20)}" cannot be read`);
		i = afterAddress;
		skipBlanks();
		if (script[i] === "!") {
			i++;
			skipBlanks();
		}
		const command = script[i];
		if (command === undefined) return fail("an address without a command");
		i++;
		if (PLAIN.has(command)) continue;
		if (EXIT.has(command)) {
			skipBlanks();
			while (/[0-9]/.test(script[i] ?? "")) i++;
			continue;
		}
		if (BRANCH.has(command)) {
			// GNU sed ends a label at whitespace or a semicolon (and reads what follows as the next command);
			// ending it at `}` too reads as commands everything any sed might, which is the safe side.
			skipBlanks();
			while (i < script.length && !/[\s;}]/.test(script[i] ?? "")) i++;
			continue;
		}
		if (TEXT.has(command)) {
			toLineEnd();
			continue;
		}
		if (command === "r" || command === "R") {
			skipBlanks();
			reads.push(toLineEnd());
			continue;
		}
		if (command === "w" || command === "W") return fail(`the sed command "${command}" writes a file`, true);
		if (command === "e") return fail('the sed command "e" runs a command');
		if (command === "s" || command === "y") {
			const end = skipDelimited(script, i, 2, command === "s" ? 1 : 0);
			if (end === null) return fail(`a "${command}" command that is not closed`);
			i = end;
			if (command === "s") {
				const flags = /^[gpiImM0-9]*/.exec(script.slice(i))?.[0] ?? "";
				i += flags.length;
				const next = script[i];
				if (next === "w") return fail("the sed flag s///w writes a file", true);
				if (next === "e") return fail("the sed flag s///e runs the result as a command");
				if (next !== undefined && !/[\s;}#]/.test(next)) return fail(`the sed flag "${next}" is not known`);
			}
			continue;
		}
		return fail(`the sed command "${command}" is not known to be read-only`);
	}
	return { ok: true, reads };
}

/** Past zero, one or two addresses (`3`, `$`, `/re/`, `\cREc`, `1~2`, `addr,+N`, `addr,~N`); null when unreadable. */
function skipAddresses(script: string, start: number): number | null {
	let i = skipAddress(script, start);
	if (i === null) return null;
	if (i !== start && script[i] === ",") {
		i++;
		if (script[i] === "+" || script[i] === "~") {
			i++;
			while (/[0-9]/.test(script[i] ?? "")) i++;
			return i;
		}
		const second = skipAddress(script, i);
		if (second === null || second === i) return null;
		i = second;
	}
	return i;
}

function skipAddress(script: string, start: number): number | null {
	let i = start;
	const char = script[i];
	if (char === undefined) return i;
	if (/[0-9]/.test(char)) {
		while (/[0-9]/.test(script[i] ?? "")) i++;
		if (script[i] === "~") {
			i++;
			while (/[0-9]/.test(script[i] ?? "")) i++;
		}
		return i;
	}
	if (char === "$") return i + 1;
	if (char === "/" || char === "\\") {
		const open = char === "\\" ? i + 1 : i;
		const end = skipDelimited(script, open, 1, 1);
		if (end === null) return null;
		i = end;
		while (script[i] === "I" || script[i] === "M") i++;
		return i;
	}
	return i;
}

/**
 * Past `count` sections closed by the delimiter at `start` (`/a/b/` is two), escapes honoured; null if unclosed.
 * The first `regexes` sections are regular expressions, where GNU sed, as POSIX says, does not end the section
 * at a delimiter inside a bracket expression (`s/[/]/;/e` is a regex `[/]`, a replacement `;` and the flag `e`).
 */
function skipDelimited(script: string, start: number, count: number, regexes: number): number | null {
	const delimiter = script[start];
	if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return null;
	// Which of a bracket and a delimiter `[` or `]` wins is not something to guess.
	if (regexes > 0 && (delimiter === "[" || delimiter === "]")) return null;
	let i = start + 1;
	let closed = 0;
	while (i < script.length) {
		const char = script[i];
		if (char === "\\") i += 2;
		else if (char === "\n") return null;
		else if (char === "[" && closed < regexes) {
			const end = bracketEnd(script, i, delimiter);
			if (end === null) return null;
			i = end;
		} else {
			i++;
			if (char === delimiter && ++closed === count) return i;
		}
	}
	return null;
}

/**
 * Past the bracket expression opening at `start` (`[a-z]`, `[]x]`, `[^]x]`, `[[:alpha:]]`; a backslash is an
 * ordinary character in it). Null when it does not close on its line, or holds the delimiter: both are read
 * differently by different seds, and a program that depends on either is not proven.
 */
function bracketEnd(script: string, start: number, delimiter: string): number | null {
	let i = start + 1;
	if (script[i] === "^") i++;
	if (script[i] === "]") i++;
	while (i < script.length) {
		const char = script[i];
		if (char === "\n" || char === delimiter) return null;
		if (char === "]") return i + 1;
		const next = script[i + 1];
		if (char === "[" && (next === ":" || next === "=" || next === ".")) {
			const close = script.indexOf(`${next}]`, i + 2);
			if (close < 0) return null;
			const inner = script.slice(i + 2, close);
			if (inner.includes("\n") || inner.includes(delimiter)) return null;
			i = close + 2;
			continue;
		}
		i++;
	}
	return null;
}
