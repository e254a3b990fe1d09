/**
 * more: a pager; it reads the files it is given. Never proven read (it can run commands).
 */
import type { CommandSpec } from "./command-spec.ts";

export const MORE: CommandSpec = { paths: { operands: "read" } };
