import { randomBytes } from "node:crypto";
import { linkSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export type ExclusiveWrite =
	| { readonly created: true }
	| { readonly created: false; readonly reason: "exists" };

/**
 * Create `file` with `content` only if nobody has: the content goes to a private temp file in the same
 * directory, which is then hard-linked to the final name. `link` fails with EEXIST when the name is taken, so
 * the first writer wins and a second one learns it, and a reader never sees a half-written file.
 */
export function createExclusive(file: string, content: string): ExclusiveWrite {
	const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
	try {
		writeFileSync(temp, content, { mode: 0o600, flag: "wx" });
		try {
			linkSync(temp, file);
		} catch (error) {
			if (typeof error === "object" && error !== null && Reflect.get(error, "code") === "EEXIST") {
				return { created: false, reason: "exists" };
			}
			throw error;
		}
		return { created: true };
	} finally {
		// Also after a failed write (ENOSPC): no temp file is left behind. Its removal failing changes nothing.
		try {
			unlinkSync(temp);
		} catch {
			// Never created, or already gone.
		}
	}
}
