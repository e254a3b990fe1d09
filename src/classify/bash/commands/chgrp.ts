/**
 * chgrp: it changes the group of the files it is given (write; a system path makes it privileged); its paths read
 * as chmod's (commands/chmod.ts).
 */
import { CHMOD_LIKE_PATHS } from "./chmod.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

export const CHGRP: CommandSpec = { tiers: rows("write", ["chgrp *"]), paths: CHMOD_LIKE_PATHS };
