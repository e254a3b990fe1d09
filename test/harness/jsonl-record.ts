/** One stdout record of pi's JSON and RPC modes: any JSON object with a string `type`. */
import { z } from "zod";

export const jsonRecordSchema = z.looseObject({ type: z.string() });
export type JsonRecord = z.infer<typeof jsonRecordSchema>;

/** `undefined` for anything that is not such an object (a stray log line corrupting the stream, for example). */
export function parseRecord(line: string): JsonRecord | undefined {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return undefined;
	}
	const parsed = jsonRecordSchema.safeParse(value);
	return parsed.success ? parsed.data : undefined;
}
