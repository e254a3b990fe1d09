/**
 * How a read-only form is described and judged: the shape of an entry in the read-only table
 * (each command's file in commands/), of a parsed command line, and of the verdict the read proof (read-proof.ts) gives.
 */
import type { Tier } from "../../vocabulary/tier.ts";
import type { PathAccess } from "../action.ts";
import type { TierRaise } from "../tier-raise.ts";
import type { BashWord } from "./bash-word.ts";
import type { PathCandidate } from "./path-candidate.ts";

export type ReadVerdict =
	| { readonly read: true; readonly paths: readonly PathCandidate[] }
	| {
			readonly read: false;
			readonly tier: Tier;
			readonly reason: string;
			/** The paths it names as far as they could be told (for deny rules, which match generously). */
			readonly paths: readonly PathCandidate[];
	  };

/** What parsing a command line against a spec found. */
export interface ParsedLine {
	/** Options by the name they matched, with their values (a flag has none). */
	readonly options: readonly { readonly spec: OptionSpec; readonly values: readonly BashWord[] }[];
	readonly operands: readonly BashWord[];
}

export interface OptionSpec {
	/** `-n`, `--lines`: every spelling the tool accepts. */
	readonly names: readonly string[];
	readonly value?: "required" | "optional";
	/** Options taking several words (`jq --arg NAME VALUE`). */
	readonly values?: number;
	/** The value names a file the command reads (or writes). */
	readonly valuePath?: PathAccess;
	/** A value check: a raise when this value makes the command more than a read. Only literal values pass. */
	readonly check?: (value: string) => TierRaise | null;
	/** Set for an option that makes the command more than a read: it is parsed, and raises to this. */
	readonly raise?: TierRaise;
	/** Read-only only with no subcommand after it; the reason it is not otherwise (`git --help log` runs man). */
	readonly onlyWithoutSubcommand?: string;
}

export interface OperandRule {
	/** `files`: read; `pattern-files`: a pattern first (unless an option gives it), then files; `text`: not files. */
	readonly kind: "files" | "pattern-files" | "text" | "none";
	readonly max?: number;
	/** What more operands than `max` mean (uniq's second operand is its output file). */
	readonly beyondMax?: TierRaise;
	readonly patternFrom?: readonly string[];
}

export interface ReadOnlyCommand {
	readonly options: readonly OptionSpec[];
	readonly operands: OperandRule;
	/** Options end at the first operand (bash builtins, POSIX-style tools); otherwise they may follow operands. */
	readonly optionsFirst?: boolean;
	/** `head -5`, `grep -3`: a dash and digits is an option. */
	readonly numericOption?: boolean;
	/**
	 * Not getopt: a value-taking short option in a cluster takes the next word, and the cluster goes on
	 * (`tree -Io x out` is `-I x -o out`).
	 */
	readonly clusterValuesFollow?: boolean;
	/** `set +e`: options may also start with `+`. */
	readonly plusOptions?: boolean;
	/** A check of the whole parsed line (a sed script, date's operand). */
	readonly check?: (parsed: ParsedLine, paths: PathCandidate[]) => TierRaise | null;
	/** Subcommands, read after the options above (git's global options, then `log …`). */
	readonly subcommands?: Readonly<Record<string, ReadOnlyCommand>>;
	/** With `subcommands`: the command alone, with no subcommand, is read-only (`git` prints its help). */
	readonly bare?: boolean;
	/**
	 * Set for a command that reads configuration from the directory it runs in, which can name programs for it to
	 * run: after the shell changes directory it is not proven read (the reason says why).
	 */
	readonly configFromDirectory?: string;
	/**
	 * Its file operands (the current directory when there are none) are trees it reads or lists all the way down
	 * (`grep -r`, `rg`, `du`): what lies below each is reached though no word names it.
	 */
	readonly descends?: (parsed: ParsedLine) => boolean;
	/** Given a directory, it opens the entries there, through the links among them (`diff dir1 dir2`). */
	readonly opensEntries?: (parsed: ParsedLine) => boolean;
	/** Commands whose syntax is not options and operands (find's expression). */
	readonly custom?: (args: readonly BashWord[]) => ReadVerdict;
}
