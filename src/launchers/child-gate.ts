import type { ChildGateQuery } from "./child-gate-query.ts";
import type { ChildGateVerdict } from "./child-gate-verdict.ts";
import { piSubagentsChildrenVerdict } from "./pi-subagents-children.ts";
import { processChildrenVerdict } from "./process-children.ts";

/**
 * Would the children this launcher call starts run with the permission gate, and if not, what exact settings
 * change puts it there? Synchronous; reads only through `query.files`; never throws for anything on disk (an
 * unreadable file reads as a child that may run ungated).
 */
export function childGateVerdict(query: ChildGateQuery): ChildGateVerdict {
	if (!query.call.launches) return { gated: true, via: "the call starts no subagent" };
	return query.launcher.kind === "pi-subagents"
		? piSubagentsChildrenVerdict(query)
		: processChildrenVerdict(query);
}
