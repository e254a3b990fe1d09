/**
 * ksh: a POSIX-style shell, unwrapped as bash is (commands/bash.ts); `$'…'` and `((` in its code are not read as
 * bash.
 */
import { unwrapShell } from "./bash.ts";
import type { CommandSpec } from "./command-spec.ts";

export const KSH: CommandSpec = { unwrap: unwrapShell };
