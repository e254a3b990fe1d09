/**
 * Option-dependent raises the pattern table cannot express (combined short flags, option values, program text):
 * each command's refiner is in its file (commands/, adr/0003). Each returns a tier and a reason, or nothing; they
 * only ever raise the table's tier.
 */
import type { TierRaise } from "../tier-raise.ts";
import { commandSpec } from "./commands/index.ts";

export function refineCommandTier(name: string, args: readonly string[]): TierRaise | undefined {
	return commandSpec(name)?.refine?.(args);
}
