/**
 * less: a pager; it reads the files it is given. Never proven read (it can run commands: `!`, `v`).
 */
import type { CommandSpec } from "./command-spec.ts";

export const LESS: CommandSpec = { paths: { operands: "read" } };
