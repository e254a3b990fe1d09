/**
 * Parked asks of this project whose answer file this version never uses (a newer version's, one for another
 * request or action) are not offered again (no other answer can be recorded), and not approvals here: the human
 * hears, once at session start, why they stay as they are.
 */
import type { UnusableAnswer } from "../hub/parked-store.ts";
import type { ForwardRequest } from "../hub/protocol.ts";
import { parkedUnreadableLine } from "../slash-command/permissions-snapshot.ts";

/** The warning naming each such ask, or null when there is none. */
export function unusableParkedAnswersNotice(
	parked: readonly { readonly request: ForwardRequest; readonly answer: UnusableAnswer }[],
): string | null {
	const lines = parked.map(({ request, answer }) => `  ${parkedUnreadableLine(request, answer)}`);
	if (lines.length === 0) return null;
	return [
		`pi-permission-hub: ${lines.length === 1 ? "a parked ask" : `${lines.length} parked asks`} of this project:`,
		...lines,
	].join("\n");
}
