/**
 * Picks the faux model's next reply from the script and the conversation so far.
 * Stateless on purpose: the turn index is the number of assistant messages already in the context, so one script
 * serves every pi process that reads it (a parent and its child sessions) and survives process restarts.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import {
	type FauxConversation,
	type FauxScript,
	type FauxToolCall,
	fauxScriptSchema,
} from "./faux-script.ts";

export type FauxReply =
	| { readonly kind: "calls"; readonly calls: readonly FauxToolCall[] }
	| { readonly kind: "text"; readonly text: string };

export const SCRIPT_ERROR_PREFIX = "FAUX SCRIPT ERROR:";
export const SCRIPT_DONE_TEXT = "SCRIPT DONE";
export const ECHO_PREFIX = "RESULTS: ";

const contextMessageSchema = z.looseObject({
	role: z.string(),
	content: z.unknown(),
	toolName: z.string().optional(),
	isError: z.boolean().optional(),
});
type ContextMessage = z.infer<typeof contextMessageSchema>;

const textBlockSchema = z.looseObject({ type: z.literal("text"), text: z.string() });

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((block) => textBlockSchema.safeParse(block).data?.text ?? "").join("");
}

function scriptError(reason: string): FauxReply {
	return { kind: "text", text: `${SCRIPT_ERROR_PREFIX} ${reason}` };
}

function pickConversation(script: FauxScript, firstUserText: string): FauxConversation | undefined {
	const matched = script.conversations.find((c) => c.match !== undefined && firstUserText.includes(c.match));
	return matched ?? script.conversations.findLast((c) => c.match === undefined);
}

/** The results after the last assistant message: the batch the previous turn's calls produced. */
function lastBatchResults(
	messages: readonly ContextMessage[],
): { tool: string; text: string; isError: boolean }[] {
	const results: { tool: string; text: string; isError: boolean }[] = [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message === undefined || message.role === "assistant") break;
		if (message.role === "toolResult") {
			results.unshift({
				tool: message.toolName ?? "",
				text: textOf(message.content),
				isError: message.isError ?? false,
			});
		}
	}
	return results;
}

export function replyFor(script: FauxScript, rawMessages: readonly unknown[]): FauxReply {
	const parsed = z.array(contextMessageSchema).safeParse(rawMessages);
	if (!parsed.success) return scriptError(`unexpected context messages: ${z.prettifyError(parsed.error)}`);
	const messages = parsed.data;
	const firstUser = messages.find((m) => m.role === "user");
	const firstUserText = firstUser ? textOf(firstUser.content) : "";
	const conversation = pickConversation(script, firstUserText);
	if (!conversation) {
		return scriptError(
			`no conversation matches first user message ${JSON.stringify(firstUserText.slice(0, 200))}`,
		);
	}
	const turnIndex = messages.filter((m) => m.role === "assistant").length;
	const turn = conversation.turns[turnIndex];
	if (turn === undefined) return { kind: "text", text: SCRIPT_DONE_TEXT };
	if ("calls" in turn) return { kind: "calls", calls: turn.calls };
	if ("text" in turn) return { kind: "text", text: turn.text };
	return { kind: "text", text: `${ECHO_PREFIX}${JSON.stringify(lastBatchResults(messages))}` };
}

/** Reads and validates the script file, then picks the reply; every problem becomes a visible error reply. */
export function replyFromScriptFile(
	scriptPath: string | undefined,
	rawMessages: readonly unknown[],
): FauxReply {
	if (!scriptPath) return scriptError("PPH_FAUX_SCRIPT is not set");
	let raw: string;
	try {
		raw = readFileSync(scriptPath, "utf8");
	} catch (error) {
		return scriptError(
			`cannot read ${scriptPath}: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	let json: unknown;
	try {
		json = JSON.parse(raw);
	} catch (error) {
		return scriptError(
			`${scriptPath} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	const script = fauxScriptSchema.safeParse(json);
	if (!script.success) return scriptError(`${scriptPath} is invalid: ${z.prettifyError(script.error)}`);
	return replyFor(script.data, rawMessages);
}
