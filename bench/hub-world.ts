/** A private temporary agent dir for the hub figures (the inbox code refuses group- or world-writable dirs). */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HubWorld {
	readonly agentDir: string;
	readonly logFile: string;
	cleanup(): void;
}

export function createHubWorld(): HubWorld {
	const agentDir = realpathSync(mkdtempSync(join(tmpdir(), "pph-bench-hub-")));
	return {
		agentDir,
		logFile: join(agentDir, "hub.log"),
		cleanup: () => rmSync(agentDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
	};
}
