/**
 * nohup: it runs the command it is given (classified on its own), immune to hangups; neutral itself.
 */
import { knownOptions, simpleWrapper } from "../wrapper-spec.ts";
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { HELP } from "./read-only-helpers.ts";

export const NOHUP: CommandSpec = { unwrap: simpleWrapper(knownOptions(opts(...HELP))) };
