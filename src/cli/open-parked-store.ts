import { lstatSync } from "node:fs";
import { join } from "node:path";
import { ParkedStore } from "../hub/parked-store.ts";
import { checkPrivateDir, UnsafeDirectoryError } from "../hub/private-files.ts";
import { hubRoot } from "../hub/protocol.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { CliError } from "./cli-error.ts";

export function parkedDir(agentDir: string): string {
	return join(hubRoot(agentDir), "parked");
}

/**
 * The parked store the gate writes (see src/gate/session-gate.ts). Its directories must be private, as
 * the gate requires: requests planted in a directory others can write must not be shown or approved.
 */
export function openParkedStore(agentDir: string): ParkedStore {
	const dir = parkedDir(agentDir);
	for (const path of [hubRoot(agentDir), dir]) {
		if (lstatSync(path, { throwIfNoEntry: false }) === undefined) break;
		try {
			checkPrivateDir(path);
		} catch (error) {
			const why = error instanceof UnsafeDirectoryError ? error.message : errorMessage(error);
			throw new CliError("io", `refusing to use the parked requests: ${why}`);
		}
	}
	return new ParkedStore(dir, agentDir);
}
