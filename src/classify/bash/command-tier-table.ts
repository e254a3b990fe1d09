/**
 * Built-in tiers of the commands that are more than a read, as data: every command's rows (from its file in
 * commands/) and the few whose first word is a pattern. Patterns use the `command` rule syntax (see
 * command-tier-lookup.ts) and are matched against the command's words with the command name reduced to its basename
 * and the tool's global options removed (`git -C dir push` is matched as `git push`). The most specific
 * (longest literal) match wins; a command that matches nothing is `write`. Nothing here is `read`: that is proven
 * word by word (read-proof.ts). Option-dependent raises that a pattern cannot express (`git push -f`, `rsync -e`,
 * …) are each command's refiner and can only raise. Choices and reasons: adr/0003-bash-classification.md.
 */
import type { Tier } from "../../vocabulary/tier.ts";
import type { CommandTierEntry } from "./commands/command-spec.ts";
import { REGISTERED_TIER_ROWS } from "./commands/index.ts";

export type { CommandTierEntry };

/** Tier of a command no pattern matches: it may change files, so it is never read. */
export const UNKNOWN_COMMAND_TIER: Tier = "write";

function all(tier: Tier, patterns: readonly string[]): CommandTierEntry[] {
	return patterns.map((pattern) => ({ pattern, tier }));
}

/** `name *` for each name: the command with any arguments (or none). */
function named(names: readonly string[]): string[] {
	return names.map((name) => `${name} *`);
}

export const BUILT_IN_COMMAND_TIERS: readonly CommandTierEntry[] = [
	// No command is read here: read is proven word by word (adr/0003). Each command's rows are in its file
	// (commands/); here are only the rows whose first word is a pattern, which no one command owns.
	// network-egress: `python3.12 -m pip install` reaches the package index whatever the interpreter's name.
	...all("network-egress", ["python* -m pip install *"]),
	// destructive: every `mkfs.<type>` makes a new file system, erasing what the device held.
	...all("destructive", named(["mkfs.*"])),
	...REGISTERED_TIER_ROWS,
];
