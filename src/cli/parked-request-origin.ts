import type { Origin } from "../origin/origin.ts";
import { scanAuditLogs } from "./scan-audit-logs.ts";

/**
 * Who asked, as the gate recorded it on the line that parked `requestId` (the request file itself only carries
 * agent names); null when no such line is found. Streams the logs; the last matching line wins (a relay that
 * parked it later knows as much).
 */
export async function parkedRequestOrigin(
	files: readonly string[],
	requestId: string,
): Promise<Origin | null> {
	let origin: Origin | null = null;
	await scanAuditLogs(files, (entry) => {
		if (entry.requestId === requestId && entry.outcome === "pending" && entry.event !== "cli") {
			origin = entry.origin;
		}
	});
	return origin;
}
