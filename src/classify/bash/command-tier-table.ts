/**
 * Built-in tiers of the commands that are more than a read, as data. Patterns use the `command` rule syntax (see
 * command-tier-lookup.ts) and are matched against the command's words with the command name reduced to its basename
 * and a few tools' global options removed (`git -C dir push` is matched as `git push`). The most specific
 * (longest literal) match wins; a command that matches nothing is `write`. Nothing here is `read`: that is proven
 * word by word (read-proof.ts, read-only-commands.ts). Option-dependent raises that a pattern cannot express
 * (`git push -f`, `rsync -e`, …) live in command-tier-refiners.ts and can only raise.
 * Choices and reasons: adr/0003-bash-classification.md.
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
	// No command is read here: read is proven word by word against read-only-commands.ts (adr/0003).

	// write: changes files or local state in a way a human can notice and undo.

	// network-egress: reaches another machine; whatever the command carries (URLs, headers, files) leaves.
	// Read-only in effect, but they ask the registry.
	...all("network-egress", ["python* -m pip install *"]),

	// spend: creates or scales billable resources.

	// destructive: deletes or overwrites data beyond easy recovery.
	...all("destructive", named(["mkfs.*"])),

	// privileged: acts as another user, on the system configuration, or on processes and devices it does not own.
	// Arithmetic on variables: bash evaluates their values, and a subscript in them can run a command.
	// The commands with a file of their own (commands/) bring their rows.
	...REGISTERED_TIER_ROWS,
];
