/** A path a command's words name, and how the command touches it (read-proof.ts, command-paths.ts). */
import type { PathAccess } from "../action.ts";

export interface PathCandidate {
	readonly access: PathAccess;
	/** As written (placeholders for run-time parts). */
	readonly typed: string;
	/** The path to resolve, or undefined when it is known only at run time. */
	readonly value: string | undefined;
	/** The command also reads or lists everything below it (`grep -r x dir`), which no word names. */
	readonly below?: true;
	/** A directory given, the command opens its entries, following links (`diff dir1 dir2`). */
	readonly entries?: true;
}
