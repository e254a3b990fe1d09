/**
 * expand: it turns tabs into spaces in the files it is given.
 */
import type { CommandSpec } from "./command-spec.ts";
import { simpleFilter } from "./read-only-helpers.ts";

export const EXPAND: CommandSpec = { readOnly: simpleFilter("-i --initial", "-t= --tabs=") };
