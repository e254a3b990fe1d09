import type { DecisionSource } from "../provenance/decision-source.ts";

export type FlatDecisionSource = Exclude<DecisionSource, { kind: "forwarded" }>;

export interface InnermostSource {
	/** The hop that actually decided; null when the last hop sent no source we could read. */
	readonly source: FlatDecisionSource | null;
	/** Forwarding hops on the way (0: decided in the session that wrote the line). */
	readonly hops: number;
}

export function innermostSource(source: DecisionSource): InnermostSource {
	let current: DecisionSource | null = source;
	let hops = 0;
	while (current?.kind === "forwarded") {
		current = current.decision;
		hops++;
	}
	return { source: current, hops };
}
