/**
 * fish: unwrapped as bash is (commands/bash.ts), but its `-c` code is not bash, so the shell is privileged.
 */
import { unwrapShell } from "./bash.ts";
import type { CommandSpec } from "./command-spec.ts";

export const FISH: CommandSpec = { unwrap: unwrapShell };
