/**
 * md5sum: it prints or checks the checksums of the files it is given (coreutils checksum form).
 */
import type { CommandSpec } from "./command-spec.ts";
import { checksum } from "./read-only-helpers.ts";

export const MD5SUM: CommandSpec = {
	readOnly: checksum,
	paths: { operands: "read" },
};
