/**
 * getopt-style reading of a command's arguments: which words are options (and their values) and which are
 * operands. Knowing which options take a value is what keeps `head -n 5 f` from reading a file named `5`.
 */

export interface ScannedOption {
	/** `-n` or `--lines` (a short option inside a cluster is reported on its own). */
	readonly name: string;
	readonly value: string | undefined;
	/** Index of the word holding the value, when it is a separate word. */
	readonly valueIndex: number | undefined;
	readonly index: number;
}

export interface ScannedArgs {
	readonly options: readonly ScannedOption[];
	/** Indexes (into the scanned array) of the operands, in order. */
	readonly operands: readonly number[];
}

export interface OptionSyntax {
	/** Options that take a value, short (`-n`) and long (`--lines`). */
	readonly withValue: ReadonlySet<string>;
	/**
	 * `true` (POSIX, and every wrapper): the first operand ends the options, so `sudo rm -rf x` stops at `rm`.
	 * `false` (GNU permutation): options may follow operands, as in `rm x -rf`.
	 */
	readonly stopAtOperand: boolean;
	/** Short options whose value is optional and only ever attached (`xargs -i{}`, `-e`, `-l`). */
	readonly attachedOnly?: ReadonlySet<string>;
}

export function scanArgs(args: readonly string[], syntax: OptionSyntax): ScannedArgs {
	const options: ScannedOption[] = [];
	const operands: number[] = [];
	let onlyOperands = false;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		if (onlyOperands || arg === "-" || !arg.startsWith("-")) {
			operands.push(i);
			if (syntax.stopAtOperand) onlyOperands = true;
			continue;
		}
		if (arg === "--") {
			onlyOperands = true;
			continue;
		}
		if (arg.startsWith("--")) {
			const equals = arg.indexOf("=");
			// Only a GNU-permuting scan reads abbreviations: where the first operand starts a wrapped command, an
			// abbreviated option stays unknown, and so the wrapper unproven (wrappers.ts).
			const abbreviated = syntax.stopAtOperand
				? undefined
				: longName(arg.slice(0, equals === -1 ? undefined : equals), syntax.withValue);
			if (equals !== -1) {
				options.push({
					name: abbreviated ?? arg.slice(0, equals),
					value: arg.slice(equals + 1),
					valueIndex: undefined,
					index: i,
				});
			} else if (syntax.withValue.has(arg)) {
				options.push({ name: arg, value: args[i + 1], valueIndex: i + 1, index: i });
				i++;
			} else if (abbreviated !== undefined) {
				// getopt_long takes `--targ` for `--target-directory` when no other option starts so. The next word is
				// its value then, unless the program has a flag spelled exactly `--targ`: it counts as both.
				options.push({ name: abbreviated, value: args[i + 1], valueIndex: i + 1, index: i });
			} else {
				options.push({ name: arg, value: undefined, valueIndex: undefined, index: i });
			}
			continue;
		}
		for (let c = 1; c < arg.length; c++) {
			const name = `-${arg[c]}`;
			if (syntax.attachedOnly?.has(name) === true) {
				const attached = arg.slice(c + 1);
				options.push({
					name,
					value: attached === "" ? undefined : attached,
					valueIndex: undefined,
					index: i,
				});
				break;
			}
			if (!syntax.withValue.has(name)) {
				options.push({ name, value: undefined, valueIndex: undefined, index: i });
				continue;
			}
			const attached = arg.slice(c + 1);
			if (attached !== "") {
				options.push({ name, value: attached, valueIndex: undefined, index: i });
			} else {
				options.push({ name, value: args[i + 1], valueIndex: i + 1, index: i });
				i++;
			}
			break;
		}
	}
	return { options, operands };
}

/**
 * The one value-taking long option `spelled` abbreviates (getopt_long accepts any unambiguous prefix: `--t=DIR`
 * is `cp --target-directory=DIR`), or undefined when it is spelled in full, abbreviates none or several.
 */
function longName(spelled: string, withValue: ReadonlySet<string>): string | undefined {
	if (spelled.length < 3 || withValue.has(spelled)) return undefined;
	let found: string | undefined;
	for (const name of withValue) {
		if (!name.startsWith("--") || !name.startsWith(spelled)) continue;
		if (found !== undefined) return undefined;
		found = name;
	}
	return found;
}

/**
 * Whether `arg` is the long option `full` as getopt_long and git's parse-options read it: in full, or any prefix
 * of it of at least one letter (`--bar` is `git init --bare`), with or without `=value`. A prefix another option
 * shares makes the program refuse, so counting it here is only ever the strict side.
 */
export function spellsLongOption(arg: string, full: string): boolean {
	const name = arg.split("=", 1)[0] ?? arg;
	return name.length > 2 && name.startsWith("--") && full.startsWith(name);
}

export function hasOption(scanned: ScannedArgs, ...names: readonly string[]): boolean {
	return scanned.options.some((option) => names.includes(option.name));
}

export function optionValues(scanned: ScannedArgs, ...names: readonly string[]): ScannedOption[] {
	return scanned.options.filter((option) => names.includes(option.name) && option.value !== undefined);
}

export function valueSet(...names: readonly string[]): ReadonlySet<string> {
	return new Set(names);
}

/** The words from the first operand on, after options that come before it (`git -C x push -f` → `push -f`). */
export function afterGlobalOptions(
	args: readonly string[],
	withValue: ReadonlySet<string>,
): readonly string[] {
	if (args.length === 0) return args;
	const { operands } = scanArgs(args, { withValue, stopAtOperand: true });
	const first = operands[0];
	return first === undefined ? args : args.slice(first);
}

/** A short flag, alone or inside a cluster, before any option that takes the rest of the cluster as its value. */
export function hasShortFlag(args: readonly string[], flag: string, valueFlags = ""): boolean {
	for (const arg of args) {
		if (arg === "--") return false;
		if (!arg.startsWith("-") || arg.startsWith("--")) continue;
		for (const char of arg.slice(1)) {
			if (char === flag) return true;
			if (valueFlags.includes(char)) break;
		}
	}
	return false;
}
