import { sanitizeLabel } from "../origin/sanitize-label.ts";
import type { DecisionSource, FlatDecisionSource } from "./decision-source.ts";

/** One readable line per chain, e.g. `forwarded(01a2b3c4…) → user(dialog, allow once)`. */
export function describeDecisionSource(source: DecisionSource | null): string {
	const frames: string[] = [];
	let current: DecisionSource | null = source;
	while (current !== null) {
		if (current.kind === "forwarded") {
			frames.push(`forwarded(${shortId(oneLine(current.responderSessionId))})`);
			current = current.decision;
			if (current === null) frames.push("(no source sent)");
			continue;
		}
		frames.push(describeFrame(current));
		current = null;
	}
	return frames.length === 0 ? "(none)" : frames.join(" → ");
}

function describeFrame(source: FlatDecisionSource): string {
	switch (source.kind) {
		case "user": {
			const where = source.parentUnreachable
				? `; in this subagent's own UI, its parent could not be asked: ${oneLine(source.parentUnreachable)}`
				: "";
			return `user(${source.via}, ${source.verdict} ${source.scope}${source.reason ? `: ${oneLine(source.reason)}` : ""}${where})`;
		}
		case "authorizer":
			return `authorizer(${oneLine(source.link)}: ${source.verdict}${source.reason ? `, ${oneLine(source.reason)}` : ""})`;
		case "rule":
			return `rule(${source.surface} "${oneLine(source.pattern)}" → ${source.action}, ${oneLine(source.origin.file)}${source.origin.jsonPath ? ` ${oneLine(source.origin.jsonPath)}` : ""}${source.saved ? `, saved ${oneLine(source.saved)}` : ""})`;
		case "session_grant":
			return `session_grant(${oneLine(source.surface)} "${oneLine(source.pattern)}", ${source.scope})`;
		case "parked_approval":
			return `parked_approval(${oneLine(source.requestId)}, approved by ${describeDecisionSource(source.approvedBy)})`;
		case "unavailable":
			return `unavailable(${oneLine(source.reason)})`;
		case "gate_error":
			return `gate_error(${oneLine(source.reason)})`;
		case "mode":
			return `mode(${source.mode})`;
	}
}

/**
 * Texts here may come from a child's response file or the audit log. A line break or bidi control in one
 * would let it forge extra lines or reorder what a human reads, so breaks become spaces and invisibles go.
 */
function oneLine(text: string): string {
	return sanitizeLabel(text.replace(/\s+/g, " "), Number.POSITIVE_INFINITY);
}

function shortId(id: string): string {
	return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
