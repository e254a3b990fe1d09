/**
 * unexpand: it turns spaces into tabs in the files it is given.
 */
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

export const UNEXPAND: CommandSpec = { readOnly: simpleFilter("-a --all", "--first-only", "-t= --tabs=") };
