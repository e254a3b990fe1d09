/**
 * whoami: it prints the user name.
 */
import type { CommandSpec } from "./command-spec.ts";
import { noArguments } from "./read-only-helpers.ts";

export const WHOAMI: CommandSpec = { readOnly: noArguments };
