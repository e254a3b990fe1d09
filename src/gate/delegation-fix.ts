/**
 * "Add the gate to <file> and continue" (adr/0011): the settings change the dialog offered, as planned when the
 * call was checked, written by the writer `doctor --fix` uses (only while the file still holds the text it was
 * planned from), then the call checked again.
 */
import type { ToolCall } from "../classify/action.ts";
import type { HubLog } from "../hub/hub-log.ts";
import { nodeFileView } from "../launchers/file-view.ts";
import {
	type PlannedChange,
	SettingsWriteError,
	writeSettingsChanges,
} from "../launchers/settings-change.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { DelegationGuard } from "./delegation-guard.ts";
import type { DelegationFixResult } from "./gate-deps.ts";

export interface DelegationFixing {
	readonly delegations: Pick<DelegationGuard, "recheck">;
	readonly notify: (message: string, level: "info" | "warning") => void;
	readonly log: Pick<HubLog, "write">;
}

/** Write `planned` for `call`; gated only when the write succeeded and the children now load the gate. */
export function fixDelegation(
	call: ToolCall,
	planned: PlannedChange,
	fixing: DelegationFixing,
): DelegationFixResult {
	const { file, key } = planned.change;
	try {
		writeSettingsChanges([planned], nodeFileView);
	} catch (error) {
		const reason = error instanceof SettingsWriteError ? error.message : errorMessage(error);
		fixing.log.write("delegation.fix_failed", { file, reason });
		return { gated: false, reason: `the change to ${file} could not be written: ${reason}` };
	}
	fixing.log.write("delegation.fixed", { file, key });
	fixing.notify(`pi-permission-hub: added the gate to ${file} (${key}).`, "info");
	const after = fixing.delegations.recheck(call);
	if (after === null || !after.verdict.gated) {
		const why = after && !after.verdict.gated ? after.verdict.why : "the call is no longer a delegation";
		return {
			gated: false,
			reason: `after the change to ${file} the subagent would still run ungated (${why})`,
		};
	}
	return { gated: true, file, via: after.verdict.via };
}
