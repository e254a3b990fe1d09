import type { DelegationCall } from "./delegation-call.ts";
import type { FileView } from "./file-view.ts";
import type { GatePackage } from "./gate-package.ts";
import type { KnownLauncher } from "./known-launcher.ts";

/** Everything the check needs; nothing else is read (the FileView is the only door to the disk). */
export interface ChildGateQuery {
	readonly launcher: KnownLauncher;
	readonly call: DelegationCall;
	/** pi's agent dir (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
	readonly agentDir: string;
	readonly homeDir: string;
	/** Whether pi trusts the project: a child process reads a trusted project's `.pi/settings.json`. */
	readonly projectTrusted: boolean;
	/** Read for `PI_SUBAGENT_EXTRA_AGENT_DIRS` (more pi-subagents agent directories). */
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The copy of the gate the fix names; null when it cannot be located. */
	readonly gate: GatePackage | null;
	readonly files: FileView;
}
