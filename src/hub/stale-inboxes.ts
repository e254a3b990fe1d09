import { lstat, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import { sameProcessAlive } from "./liveness.ts";
import { hubRoot, inboxLayoutAt, readServerInfo } from "./protocol.ts";

/** An inbox nobody served or wrote to for this long belongs to a session that is over. */
const STALE_INBOX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export interface StaleInboxSweep {
	readonly removed: readonly string[];
	/** Inboxes that looked stale but could not be removed, with why. */
	readonly failed: readonly { readonly inbox: string; readonly error: string }[];
}

/**
 * Every pi session that serves leaves `inbox/<session id>/` behind: a resumed session reuses it, so it is not
 * removed at close. This removes the ones no live process serves whose every part is older than a week, so
 * the agent dir does not grow by a directory tree per session forever. Symlinks and other odd entries are left
 * alone (never followed); a fresh inbox (a session starting right now) is never old enough to go. `signal`
 * stops the sweep after the inbox it is removing: a session that ends must not wait for ten thousand of them
 * (19 s at exit, measured), and the next session's sweep goes on from there.
 */
export async function removeStaleInboxes(
	agentDir: string,
	options: { readonly keep?: string; readonly signal?: AbortSignal } = {},
): Promise<StaleInboxSweep> {
	const cutoffMs = Date.now() - STALE_INBOX_AGE_MS;
	const inboxes = join(hubRoot(agentDir), "inbox");
	const removed: string[] = [];
	const failed: { inbox: string; error: string }[] = [];
	let names: string[];
	try {
		names = await readdir(inboxes);
	} catch {
		return { removed, failed };
	}
	for (const name of names) {
		if (options.signal?.aborted) break;
		if (options.keep !== undefined && name === encodeURIComponent(options.keep)) continue;
		const root = join(inboxes, name);
		if (!(await isStale(root, cutoffMs))) continue;
		try {
			await rm(root, { recursive: true, force: true });
			removed.push(root);
		} catch (error) {
			failed.push({ inbox: root, error: errorMessage(error) });
		}
	}
	return { removed, failed };
}

async function isStale(root: string, cutoffMs: number): Promise<boolean> {
	const layout = inboxLayoutAt(root);
	const rootStats = await lstat(root).catch(() => null);
	if (!rootStats?.isDirectory()) return false;
	const server = readServerInfo(layout.server);
	if (server !== null && sameProcessAlive(server.pid, server.startToken)) return false;
	for (const part of [
		root,
		layout.requests,
		layout.responses,
		layout.claims,
		layout.children,
		layout.server,
	]) {
		const stats = await lstat(part).catch(() => null);
		if (stats !== null && stats.mtimeMs > cutoffMs) return false;
	}
	return true;
}
