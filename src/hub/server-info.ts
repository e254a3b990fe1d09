import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import { PROTOCOL } from "./protocol.ts";
import { readInboxJson } from "./read-inbox-json.ts";

/** `server.json` in an inbox: who serves it. A child found by session id learns the pid to watch from here. */
export const serverInfoSchema = lazySchema(() =>
	z.object({
		protocol: z.literal(PROTOCOL),
		sessionId: z.string().max(256),
		pid: z.number().int().positive(),
		startToken: z.string().max(64).nullable(),
		path: z.array(z.string().max(256)).min(1).max(32),
		startedAt: z.iso.datetime(),
	}),
);
export type ServerInfo = z.infer<ReturnType<typeof serverInfoSchema>>;

export function readServerInfo(file: string): ServerInfo | null {
	return readInboxJson(file, 16 * 1024, serverInfoSchema());
}
