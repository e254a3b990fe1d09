/**
 * bundle (Bundler): `bundle exec` runs a local command, classified on its own.
 */
import type { CommandSpec } from "./command-spec.ts";
import { subcommandRunner } from "./package-runners.ts";

export const BUNDLE: CommandSpec = { unwrap: subcommandRunner({ local: ["exec"] }) };
