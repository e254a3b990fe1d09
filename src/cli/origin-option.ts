import { ORIGIN_KINDS, type OriginKind } from "../origin/origin.ts";
import { usageError } from "./cli-error.ts";

/** `--origin KIND[:NAME]`: an origin kind, and for subagents and CI the name or provider. */
export interface OriginMatcher {
	readonly kind: OriginKind;
	readonly name: string | null;
}

export function parseOriginOption(text: string): OriginMatcher {
	const colon = text.indexOf(":");
	const kind = colon < 0 ? text : text.slice(0, colon);
	const name = colon < 0 ? null : text.slice(colon + 1);
	const known = ORIGIN_KINDS.find((k) => k === kind);
	if (known === undefined) {
		throw usageError(
			`--origin must be KIND or KIND:NAME, KIND one of ${ORIGIN_KINDS.join(", ")} (got ${JSON.stringify(text)})`,
		);
	}
	if (name !== null && (name === "" || known === "human" || known === "headless")) {
		throw usageError(
			`--origin ${JSON.stringify(text)}: only subagent and ci origins carry a (non-empty) name`,
		);
	}
	return { kind: known, name };
}
