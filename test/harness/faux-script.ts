/**
 * The script that drives the faux model: which tool calls the "model" makes, turn by turn, per conversation.
 * Tests write it as JSON (`writeScript`); the faux model extension re-reads it on every model request.
 */
import { rename, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { Sandbox } from "./sandbox.ts";

const toolCallSchema = z.strictObject({
	tool: z.string().min(1),
	input: z.record(z.string(), z.json()),
	/** The call's id; absent = a fresh one. A hostile model may give two calls one id. */
	id: z.string().min(1).optional(),
});

const turnSchema = z.union([
	/** One assistant message carrying these calls (a parallel batch when there are several). */
	z.strictObject({ calls: z.array(toolCallSchema).min(1) }),
	/** A final text answer. */
	z.strictObject({ text: z.string() }),
	/** A final text `RESULTS: <json>` listing the tool results of the previous batch. */
	z.strictObject({ echo: z.literal(true) }),
]);

const conversationSchema = z.strictObject({
	/** Substring of the conversation's first user message; absent = a default conversation. */
	match: z.string().min(1).optional(),
	turns: z.array(turnSchema),
});

export const fauxScriptSchema = z.strictObject({
	conversations: z.array(conversationSchema).min(1),
});

export type FauxToolCall = z.infer<typeof toolCallSchema>;
export type FauxTurn = z.infer<typeof turnSchema>;
export type FauxConversation = z.infer<typeof conversationSchema>;
export type FauxScript = z.infer<typeof fauxScriptSchema>;

/** Environment variable naming the script file; `Sandbox.env()` sets it. */
export const FAUX_SCRIPT_ENV = "PPH_FAUX_SCRIPT";

/** Validates and writes the script atomically (temp file + rename), so a running pi never reads half a file. */
export async function writeScript(
	sandbox: Pick<Sandbox, "fauxScriptPath">,
	script: FauxScript,
): Promise<void> {
	const valid = fauxScriptSchema.parse(script);
	const temp = `${sandbox.fauxScriptPath}.${process.pid}.${Date.now()}.tmp`;
	await writeFile(temp, `${JSON.stringify(valid, null, "\t")}\n`);
	await rename(temp, sandbox.fauxScriptPath);
}
