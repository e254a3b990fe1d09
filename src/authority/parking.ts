import type { ParkedStore } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import type { TerminalDecision } from "./terminal-authorizer.ts";

/**
 * Park a request durably: the call is blocked now, and an approval given later (in a root session or with
 * `approve`) lets the identical action through. A store that cannot take it means nobody can answer it later
 * either: the ask is refused as unavailable, never reported as parked.
 */
export async function parkRequest(
	parked: ParkedStore,
	request: ForwardRequest,
	reason: string,
): Promise<Extract<TerminalDecision, { outcome: "parked" | "deny" }>> {
	try {
		await parked.park(request);
	} catch (error) {
		return {
			outcome: "deny",
			source: { kind: "unavailable", reason: `the ask could not be parked: ${errorMessage(error)}` },
		};
	}
	return { outcome: "parked", source: { kind: "unavailable", reason }, requestId: request.id };
}
