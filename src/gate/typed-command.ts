/**
 * A command this session's human typed (`!` in pi, or RPC `bash`), as the pipeline (adr/0002) judges it: a bash
 * call in the given cwd, allowed unless a deny rule forbids it — nobody is asked about their own command, and it
 * is recorded as the human's own (`user` via `typed`).
 */
import type { ToolCall } from "../classify/action.ts";
import { findDeny } from "../policy/decide.ts";
import { userOnce } from "../provenance/decision-source.ts";
import { deniedBy, type PolicyContext, type PolicyStep } from "./ask-plan.ts";

/** The call the classifier judges for a typed command. */
export function typedCommandCall(command: string, cwd: string): ToolCall {
	return { tool: "bash", input: { command }, cwd };
}

export function typedCommandStep({ action, origin, what, policy }: PolicyContext): PolicyStep {
	const denied = findDeny(action, policy, origin);
	if (denied) return deniedBy(what.replace("this bash call", "this command"), denied);
	const source = userOnce("typed", "allow");
	return { settled: { outcome: "allow", mode: "auto", source, reason: "typed by the user" } };
}
