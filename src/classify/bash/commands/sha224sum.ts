/**
 * sha224sum: it prints or checks checksums of the files it is given (coreutils checksum form).
 */
import type { CommandSpec } from "./command-spec.ts";
import { checksum } from "./read-only-helpers.ts";

export const SHA224SUM: CommandSpec = { readOnly: checksum };
