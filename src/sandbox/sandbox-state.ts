/**
 * Whether a session's bash runs in the sandbox, and how that is told to the user: the same words in the status
 * line, `/permissions` and `doctor` (adr/0017).
 */
import type { SandboxSettings } from "../policy/effective-policy.ts";

/** Whether this session's bash runs in the sandbox. */
export type SandboxState =
	| { readonly kind: "off" }
	/** On; whether bubblewrap can run here is being found out (at session start, for a few milliseconds). */
	| { readonly kind: "probing" }
	/**
	 * `rewritten`: why another bash tool than the gate's runs the commands (pi's own, kept for pi-subagents; another
	 * extension's), so the gate rewrites each allowed command into the sandbox instead (adr/0017).
	 */
	| { readonly kind: "on"; readonly bubblewrap: string; readonly rewritten?: string }
	/**
	 * `fix`: what to do about it, following why (the probe's, adr/0017); null when `why` says it. `asks`: a call
	 * that would run without a human asks one (sandbox.required, or the gate rewrites commands); else it runs
	 * unsandboxed.
	 */
	| {
			readonly kind: "unavailable";
			readonly why: string;
			readonly fix: string | null;
			readonly asks: boolean;
	  };

/** The sandbox's state and settings, one line each, for `/permissions` and `doctor`. */
export function describeSandbox(state: SandboxState, settings: SandboxSettings): string[] {
	const lines: string[] = [];
	switch (state.kind) {
		case "off":
			lines.push('off: bash commands run unsandboxed (the user config says "sandbox": { "enabled": false })');
			break;
		case "probing":
			lines.push("on: checking whether bubblewrap can build a sandbox here");
			break;
		case "on":
			lines.push(
				`on (${state.bubblewrap}): bash commands allowed without a human run in the sandbox of their tier`,
			);
			if (state.rewritten !== undefined)
				lines.push(`each allowed command is rewritten into the sandbox: ${state.rewritten}`);
			break;
		case "unavailable": {
			const consequence = settings.required
				? "sandbox.required, so every bash call that would run without a human asks one"
				: state.asks
					? "every bash call that would run without a human asks one"
					: "commands run unsandboxed";
			lines.push(
				`ON BUT UNAVAILABLE: ${state.why}; ${consequence}${state.fix === null ? "" : ` — ${state.fix}`}`,
			);
			break;
		}
	}
	if (state.kind === "off") return lines;
	lines.push(
		settings.human
			? "a human's approvals run in the sandbox of their tier too (sandbox.human)"
			: "a human's approvals run as approved",
	);
	if (settings.exclude.length > 0)
		lines.push(`run unsandboxed (sandbox.exclude): ${settings.exclude.map((m) => m.pattern).join(", ")}`);
	lines.push(
		settings.networkAllow.length === 0
			? "network profile: any host"
			: `network profile: only ${settings.networkAllow.map((list) => list.join(", ")).join(" and also in ")}`,
	);
	return lines;
}
