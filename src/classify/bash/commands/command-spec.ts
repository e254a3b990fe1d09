/**
 * What the classifier knows about one shell command, as one value a file in commands/ exports: the engines
 * (read-proof.ts, command-tier-lookup.ts, command-tier-refiners.ts, command-paths.ts, wrappers.ts) read each part
 * from the registry (commands/index.ts), so a reviewer reviews a tool in one file (adr/0003).
 */
import type { Tier } from "../../../vocabulary/tier.ts";
import type { TierRaise } from "../../tier-raise.ts";
import type { PathExtractor, PathSpec } from "../path-spec.ts";
import type { OptionSpec, ReadOnlyCommand } from "../read-only-spec.ts";
import type { Unwrapper } from "../wrapper-spec.ts";

export interface CommandTierEntry {
	readonly pattern: string;
	readonly tier: Tier;
}

/** An option-dependent raise a pattern cannot express (`git push -f`); it only ever raises. */
export type Refiner = (args: readonly string[]) => TierRaise | undefined;

export interface CommandSpec {
	/** Its read-only forms (read-proof.ts); without it the command is never proven read. */
	readonly readOnly?: ReadOnlyCommand;
	/** Its rows of the built-in tier table, in the `command` pattern syntax (command-tier-lookup.ts). */
	readonly tiers?: readonly CommandTierEntry[];
	/** The options it takes before its subcommand: the tier table sees `git -C dir push` as `git push`. */
	readonly globalOptions?: readonly OptionSpec[];
	/** A word starting with `+` before the subcommand is a global option too (`cargo +nightly build`). */
	readonly plusGlobalOptions?: true;
	readonly refine?: Refiner;
	/** The paths its words name, as data (command-paths.ts)… */
	readonly paths?: PathSpec;
	/** …or read by code of its own. */
	readonly extractPaths?: PathExtractor;
	/**
	 * At `write`, these words make it write nothing but the paths found and do nothing else (`sed -i` with a plain
	 * substitution), as a file writer does (classify-bash.ts).
	 */
	readonly writesOnlyItsPaths?: (args: readonly string[]) => boolean;
	/** At `destructive`, it removes the paths found and does nothing else (rm); adr/0023's `trusted` mode reads it. */
	readonly removesOnlyItsPaths?: true;
	/** It lands its source trees at its destination (cp, mv): a copied git directory guards the copy (adr/0014). */
	readonly landsSourcesAtDestination?: true;
	/** How it runs another command (wrappers.ts). */
	readonly unwrap?: Unwrapper;
}

/** Rows of one tier. */
export function rows(tier: Tier, patterns: readonly string[]): CommandTierEntry[] {
	return patterns.map((pattern) => ({ pattern, tier }));
}
