import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import type { InboxLayout } from "./inbox-layout.ts";
import { processAlive } from "./liveness.ts";
import { checkPrivateDir } from "./private-dir.ts";
import { PROTOCOL } from "./protocol.ts";
import { readInboxFile } from "./read-inbox-file.ts";

/**
 * A gated child tells its parent it exists (`children/<session id>.json` in the parent's inbox), so the parent
 * can list the children it serves and know that a delegation produced a gated child. Removed when the child's
 * session ends; a dead child's file is ignored.
 */
export const childAnnouncementSchema = z.object({
	protocol: z.literal(PROTOCOL),
	sessionId: z.string().min(1).max(256),
	agent: z.string().max(256),
	path: z.array(z.string().max(256)).min(1).max(33),
	pid: z.number().int().positive(),
	inProcess: z.boolean(),
	startedAt: z.iso.datetime(),
});
export type ChildAnnouncement = z.infer<typeof childAnnouncementSchema>;

const SESSION_FILE = /^[A-Za-z0-9._%-]{1,300}\.json$/;

function fileFor(layout: InboxLayout, sessionId: string): string {
	return join(layout.children, `${encodeURIComponent(sessionId)}.json`);
}

/** Announce; returns why it failed (the parent does not serve, its inbox is unsafe), or null. */
export function announceToParent(layout: InboxLayout, child: ChildAnnouncement): string | null {
	try {
		checkPrivateDir(layout.root);
		checkPrivateDir(layout.children);
		writeFileAtomic.sync(fileFor(layout, child.sessionId), JSON.stringify(child), { mode: 0o600 });
		return null;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

export function withdrawAnnouncement(layout: InboxLayout, sessionId: string): void {
	try {
		unlinkSync(fileFor(layout, sessionId));
	} catch {
		// Already gone.
	}
}

/** The children that announced themselves and are still running (in-process ones are trusted to withdraw). */
export function announcedChildren(layout: InboxLayout): ChildAnnouncement[] {
	let names: string[];
	try {
		names = readdirSync(layout.children);
	} catch {
		return [];
	}
	const out: ChildAnnouncement[] = [];
	for (const name of names) {
		if (!SESSION_FILE.test(name)) continue;
		const read = readInboxFile(join(layout.children, name), 16 * 1024);
		if (!read.ok) continue;
		try {
			const parsed = childAnnouncementSchema.safeParse(JSON.parse(read.text));
			if (parsed.success && (parsed.data.inProcess || processAlive(parsed.data.pid))) out.push(parsed.data);
		} catch {
			// Not JSON: ignored, like any broken file in the inbox.
		}
	}
	return out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}
