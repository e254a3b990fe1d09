import { unlinkSync } from "node:fs";

/**
 * Removes a file that is only clean-up: a claim, an answered request, a sweep of stale files. It may already be
 * gone (another process cleaned up first), and a removal that fails leaves what a later sweep removes, so no
 * error of it is worth reporting.
 */
export function removeQuietly(file: string): void {
	try {
		unlinkSync(file);
	} catch {
		// Already gone, or left for the next sweep.
	}
}
