import { readdirSync } from "node:fs";
import { join } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import { processAlive } from "./liveness.ts";
import { readInboxJson, writePrivateFileSync } from "./private-files.ts";
import type { InboxLayout } from "./protocol.ts";
import { PROTOCOL } from "./protocol.ts";

/**
 * A gated child tells its parent it exists (`children/<session id>.json` in the parent's inbox), so the parent
 * can list the children it serves and know that a delegation produced a gated child. When the child's session
 * ends the file is kept and marked ended: a delegation that finished must still show that its child was gated.
 * A child whose process died without saying so counts as ended.
 */
export const childAnnouncementSchema = lazySchema(() =>
	z.object({
		protocol: z.literal(PROTOCOL),
		sessionId: z.string().check(z.minLength(1), z.maxLength(256)),
		agent: z.string().check(z.maxLength(256)),
		path: z.array(z.string().check(z.maxLength(256))).check(z.minLength(1), z.maxLength(33)),
		pid: z.int().check(z.positive()),
		inProcess: z.boolean(),
		startedAt: z.iso.datetime(),
		endedAt: z.optional(z.iso.datetime()),
		/**
		 * SHA-256 of each argument the child's process started with (a process child only): its parent can tell
		 * which task of its own delegation call started it (adr/0025) without the child writing its arguments
		 * (an API key may be one) into the parent's inbox. Optional: older children do not write it.
		 */
		argDigests: z.optional(
			z.array(z.string().check(z.regex(/^[0-9a-f]{64}$/))).check(z.maxLength(MAX_ARG_DIGESTS)),
		),
	}),
);
export type ChildAnnouncement = z.infer<ReturnType<typeof childAnnouncementSchema>>;

/** pi's own options come first; a launcher's task is among the first arguments. */
export const MAX_ARG_DIGESTS = 64;

const SESSION_FILE = /^[A-Za-z0-9._%-]{1,300}\.json$/;

function fileFor(layout: InboxLayout, sessionId: string): string {
	return join(layout.children, `${encodeURIComponent(sessionId)}.json`);
}

/** Announce; returns why it failed (the parent does not serve, its inbox is unsafe), or null. */
export function announceToParent(layout: InboxLayout, child: ChildAnnouncement): string | null {
	try {
		writePrivateFileSync(fileFor(layout, child.sessionId), JSON.stringify(child), [
			layout.root,
			layout.children,
		]);
		return null;
	} catch (error) {
		return errorMessage(error);
	}
}

/** Mark the child's announcement ended (kept for `childrenAnnouncedSince`); a missing or broken file is left alone. */
export function endAnnouncement(layout: InboxLayout, sessionId: string): void {
	const file = fileFor(layout, sessionId);
	const current = readAnnouncement(file);
	if (!current || current.endedAt) return;
	try {
		const ended = { ...current, endedAt: new Date().toISOString() };
		writePrivateFileSync(file, JSON.stringify(ended), [layout.root, layout.children]);
	} catch {
		// The parent's inbox is gone or unsafe; the child's pid liveness still tells it ended (process children).
	}
}

/** The children that announced themselves and are still running (in-process ones are trusted to say they ended). */
export function announcedChildren(layout: InboxLayout): ChildAnnouncement[] {
	return readAnnouncements(layout).filter(
		(child) => child.endedAt === undefined && (child.inProcess || processAlive(child.pid)),
	);
}

/** Every child that announced itself at or after `sinceMs` (epoch ms), running or ended. */
export function childrenAnnouncedSince(layout: InboxLayout, sinceMs: number): ChildAnnouncement[] {
	return readAnnouncements(layout).filter((child) => Date.parse(child.startedAt) >= sinceMs);
}

function readAnnouncements(layout: InboxLayout): ChildAnnouncement[] {
	let names: string[];
	try {
		names = readdirSync(layout.children);
	} catch {
		return [];
	}
	const out: ChildAnnouncement[] = [];
	for (const name of names) {
		if (!SESSION_FILE.test(name)) continue;
		const child = readAnnouncement(join(layout.children, name));
		if (child) out.push(child);
	}
	return out.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function readAnnouncement(file: string): ChildAnnouncement | null {
	return readInboxJson(file, 16 * 1024, childAnnouncementSchema());
}
