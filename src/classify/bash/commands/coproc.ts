/**
 * coproc: the bash keyword runs the command it is given (classified on its own) in the background.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

export const COPROC: CommandSpec = { unwrap: simpleWrapper(knownOptions(opts())) };
