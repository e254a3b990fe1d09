/**
 * man: it shows a manual page found by name (running groff); its operands are names, not paths. Never proven
 * read.
 */
import type { CommandSpec } from "./command-spec.ts";

export const MAN: CommandSpec = { paths: { operands: "none" } };
