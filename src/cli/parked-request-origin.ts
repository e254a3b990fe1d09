import type { Origin } from "../origin/origin.ts";
import type { AuditScan } from "./scan-audit-logs.ts";
import { scanAuditLogs } from "./scan-audit-logs.ts";

export interface ParkedOrigin {
	/** The origin the gate recorded when it parked the request; null when no such line was found. */
	readonly origin: Origin | null;
	readonly scan: AuditScan;
}

/**
 * Who asked, as the gate recorded it on the line that parked `requestId` (the request file itself only carries
 * agent names). Streams the logs; the last matching line wins (a relay that parked it later knows as much).
 */
export async function parkedRequestOrigin(
	files: readonly string[],
	requestId: string,
): Promise<ParkedOrigin> {
	let origin: Origin | null = null;
	const scan = await scanAuditLogs(files, (entry) => {
		if (entry.requestId === requestId && entry.outcome === "pending" && entry.event !== "cli") {
			origin = entry.origin;
		}
	});
	return { origin, scan };
}
