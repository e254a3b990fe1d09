/**
 * DecisionSource: who or what decided, recorded where the decision was made. A forwarded decision nests the
 * responder's own source, one frame per hop, so the root's answer reaches a grandchild with the whole chain.
 */

/** `guard`: a path the gate guards for itself (never a config rule: adr/0014). */
export type RuleSurface =
	| "tool"
	| "command"
	| "read"
	| "write"
	| "path"
	| "outside-cwd"
	| "tier"
	| "agent"
	| "guard";

export interface RuleOrigin {
	/** Absolute config file path, or `built-in` for the defaults. */
	readonly file: string;
	/** JSON path inside the file, e.g. `rules[3]` or `tiers.write`. */
	readonly jsonPath: string;
	readonly line?: number;
}

/** Where a human decided: at a dialog, with the CLI, or by typing the command themselves (`!` in pi). */
export type UserSurface = "dialog" | "cli" | "typed";

export type DecisionSource =
	| {
			readonly kind: "user";
			readonly via: UserSurface;
			readonly verdict: "allow" | "deny";
			/** How long the answer lives: this call only, or a grant recorded for later calls. */
			readonly scope: "once" | "session" | "subagent" | "tree";
			readonly reason?: string;
	  }
	| {
			readonly kind: "authorizer";
			readonly link: string;
			readonly verdict: "allow" | "deny";
			readonly reason?: string;
	  }
	| {
			readonly kind: "rule";
			readonly surface: RuleSurface;
			readonly pattern: string;
			readonly action: "allow" | "ask" | "deny" | "auto";
			readonly origin: RuleOrigin;
			readonly reason?: string;
	  }
	| {
			readonly kind: "session_grant";
			readonly grantId: string;
			readonly surface: string;
			readonly pattern: string;
			readonly scope: "session" | "subagent" | "tree";
	  }
	| { readonly kind: "parked_approval"; readonly requestId: string; readonly approvedVia: UserSurface }
	| { readonly kind: "unavailable"; readonly reason: string }
	| { readonly kind: "gate_error"; readonly reason: string }
	| {
			readonly kind: "forwarded";
			readonly responderSessionId: string;
			/** The responder's own source; null when it sent none we could read (the hop is still a fact). */
			readonly decision: DecisionSource | null;
	  };

export type DecisionSourceKind = DecisionSource["kind"];

/** The longest text a DecisionSource field may carry; the reader rejects longer ones, so writers cut to it. */
export const MAX_SOURCE_TEXT = 2000;

/** Cut `text` to MAX_SOURCE_TEXT UTF-16 units without leaving half a surrogate pair at the end. */
export function capSourceText(text: string): string {
	if (text.length <= MAX_SOURCE_TEXT) return text;
	const cut = text.slice(0, MAX_SOURCE_TEXT);
	const last = cut.charCodeAt(cut.length - 1);
	return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
