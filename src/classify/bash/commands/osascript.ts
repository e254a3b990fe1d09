/**
 * osascript: `-e` code cannot be analysed (privileged); a script runs as a command of its own.
 */
import { inlineE } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";

export const OSASCRIPT: CommandSpec = { unwrap: inlineE };
