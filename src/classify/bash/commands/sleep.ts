/**
 * sleep: it waits; its operands are durations.
 */
import type { CommandSpec } from "./command-spec.ts";
import { inert } from "./read-only-helpers.ts";

export const SLEEP: CommandSpec = { readOnly: inert, paths: { operands: "none" } };
