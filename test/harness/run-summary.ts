/** What one agent run did, read off its event records (the same records in RPC and `--mode json`). */
import { z } from "zod";
import type { JsonRecord } from "./jsonl-record.ts";

export interface ToolResultSummary {
	readonly toolCallId: string;
	readonly toolName: string;
	readonly isError: boolean;
	/** The text blocks of the result, joined; for a blocked call this is the block reason. */
	readonly text: string;
}

export interface RunSummary {
	readonly toolResults: readonly ToolResultSummary[];
	/** Text of the last assistant message that had text. */
	readonly finalText: string | undefined;
	/** From the run's `agent_settled`. */
	readonly aborted: boolean;
}

const toolEndSchema = z.looseObject({
	type: z.literal("tool_execution_end"),
	toolCallId: z.string(),
	toolName: z.string(),
	isError: z.boolean(),
	result: z.unknown(),
});
const textBlocksSchema = z.array(z.looseObject({ type: z.string(), text: z.string().optional() }));
const toolResultSchema = z.looseObject({ content: textBlocksSchema });
const assistantEndSchema = z.looseObject({
	type: z.literal("message_end"),
	message: z.looseObject({ role: z.literal("assistant"), content: textBlocksSchema }),
});
const settledSchema = z.looseObject({ type: z.literal("agent_settled"), aborted: z.boolean().optional() });

function textOfBlocks(blocks: z.infer<typeof textBlocksSchema>): string {
	return blocks.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}

export function summarizeRun(records: readonly JsonRecord[]): RunSummary {
	const toolResults: ToolResultSummary[] = [];
	let finalText: string | undefined;
	let aborted = false;
	for (const record of records) {
		const toolEnd = toolEndSchema.safeParse(record);
		if (toolEnd.success) {
			const result = toolResultSchema.safeParse(toolEnd.data.result);
			toolResults.push({
				toolCallId: toolEnd.data.toolCallId,
				toolName: toolEnd.data.toolName,
				isError: toolEnd.data.isError,
				text: result.success ? textOfBlocks(result.data.content) : "",
			});
			continue;
		}
		const assistant = assistantEndSchema.safeParse(record);
		if (assistant.success) {
			const text = textOfBlocks(assistant.data.message.content);
			if (text !== "") finalText = text;
			continue;
		}
		const settled = settledSchema.safeParse(record);
		if (settled.success) aborted = settled.data.aborted ?? false;
	}
	return { toolResults, finalText, aborted };
}
