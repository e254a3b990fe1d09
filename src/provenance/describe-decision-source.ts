import type { DecisionSource } from "./decision-source.ts";

/** One readable line per chain, e.g. `forwarded(01a2b3c4…) → user(dialog, allow once)`. */
export function describeDecisionSource(source: DecisionSource | null): string {
	const frames: string[] = [];
	let current: DecisionSource | null = source;
	while (current !== null) {
		if (current.kind === "forwarded") {
			frames.push(`forwarded(${shortId(current.responderSessionId)})`);
			current = current.decision;
			if (current === null) frames.push("(no source sent)");
			continue;
		}
		frames.push(describeFrame(current));
		current = null;
	}
	return frames.length === 0 ? "(none)" : frames.join(" → ");
}

type FlatSource = Exclude<DecisionSource, { kind: "forwarded" }>;

function describeFrame(source: FlatSource): string {
	switch (source.kind) {
		case "user":
			return `user(${source.via}, ${source.verdict} ${source.scope}${source.reason ? `: ${source.reason}` : ""})`;
		case "authorizer":
			return `authorizer(${source.link}: ${source.verdict}${source.reason ? `, ${source.reason}` : ""})`;
		case "rule":
			return `rule(${source.surface} "${source.pattern}" → ${source.action}, ${source.origin.file}${source.origin.jsonPath ? ` ${source.origin.jsonPath}` : ""})`;
		case "session_grant":
			return `session_grant(${source.surface} "${source.pattern}", ${source.scope})`;
		case "parked_approval":
			return `parked_approval(${source.requestId} via ${source.approvedVia})`;
		case "unavailable":
			return `unavailable(${source.reason})`;
		case "gate_error":
			return `gate_error(${source.reason})`;
	}
}

function shortId(id: string): string {
	return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}
