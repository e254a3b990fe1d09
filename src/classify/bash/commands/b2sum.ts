/**
 * b2sum: it prints or checks BLAKE2 checksums of the files it is given (coreutils checksum form).
 */
import type { CommandSpec } from "./command-spec.ts";
import { opts } from "./option-notation.ts";
import { checksum } from "./read-only-helpers.ts";

export const B2SUM: CommandSpec = {
	readOnly: { ...checksum, options: [...checksum.options, ...opts("-l= --length=")] },
};
