/**
 * clang: read-only only as `--version` or `--help` alone; anything else is write (it compiles or runs code).
 */
import type { CommandSpec } from "./command-spec.ts";
import { versionOnly } from "./read-only-helpers.ts";

export const CLANG: CommandSpec = { readOnly: versionOnly([]) };
