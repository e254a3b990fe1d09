/** builtin: it runs the shell builtin it is given (classified on its own); it takes no options. */
import { unwrapCommandBuiltin } from "./command.ts";
import type { CommandSpec } from "./command-spec.ts";

export const BUILTIN: CommandSpec = { unwrap: unwrapCommandBuiltin };
