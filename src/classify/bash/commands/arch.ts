/**
 * arch: it prints the machine architecture.
 */
import type { CommandSpec } from "./command-spec.ts";
import { noArguments } from "./read-only-helpers.ts";

export const ARCH: CommandSpec = { readOnly: noArguments };
