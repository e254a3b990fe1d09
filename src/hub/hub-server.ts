import { readdirSync, statfsSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { DecisionSource } from "../provenance/decision-source.ts";
import { createExclusive } from "./create-exclusive.ts";
import type { HubLog } from "./hub-log.ts";
import { type InboxLayout, requestFile, responseFile } from "./inbox-layout.ts";
import { LIVENESS_INTERVAL_MS, processAlive, processStartToken } from "./liveness.ts";
import { ensurePrivateDir } from "./private-dir.ts";
import {
	type ForwardRequest,
	type ForwardResponse,
	forwardRequestSchema,
	MAX_REQUEST_BYTES,
	PROTOCOL,
	REQUEST_ID,
} from "./protocol.ts";
import { readInboxFile } from "./read-inbox-file.ts";
import type { ServerInfo } from "./server-info.ts";

/** The parent's answer to one forwarded ask (the response file is built from it). */
export interface ServerAnswer {
	readonly decision: "allow" | "deny" | "parked";
	readonly scope: "once" | "subagent" | "tree";
	readonly grants: ForwardResponse["grants"];
	readonly reason?: string;
	readonly source: DecisionSource;
}

export interface ServedAsk {
	readonly request: ForwardRequest;
	/** Aborted when the asking child cancels, dies or the server closes: the dialog is withdrawn. */
	readonly signal: AbortSignal;
}

export interface HubServerOptions {
	readonly layout: InboxLayout;
	/** The agent dir: the inbox and everything between are checked to be private below it. */
	readonly base: string;
	readonly sessionId: string;
	readonly path: readonly string[];
	readonly log: HubLog;
	readonly decide: (ask: ServedAsk) => Promise<ServerAnswer>;
	/** Called with the number of asks being decided (for the status line). */
	readonly onPendingChange?: (pending: number) => void;
}

/** File systems where inotify sees nothing other machines or the host do: poll instead, and say so. */
const NETWORK_FS = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997, 0x5346414f]);

/**
 * The parent side of the hub: serves one inbox. It is woken by the file system (chokidar on `requests/`, no
 * timer while idle), lists the directory at start and after any watcher error (events can be lost), claims
 * each request exclusively (two instances on one inbox show it once), decides it, and creates the response
 * exclusively (the first answer wins).
 */
export class HubServer {
	private readonly options: HubServerOptions;
	private readonly inFlight = new Map<string, AbortController>();
	private readonly handled = new Set<string>();
	private watcher: { close(): Promise<void> } | null = null;
	private closed = false;
	private polling = false;

	constructor(options: HubServerOptions) {
		this.options = options;
	}

	get layout(): InboxLayout {
		return this.options.layout;
	}

	/** Create the inbox (private), announce who serves it, start watching, and pick up what is already there. */
	async open(): Promise<void> {
		const { layout, base } = this.options;
		for (const dir of [layout.requests, layout.responses, layout.claims]) ensurePrivateDir(dir, base);
		const info: ServerInfo = {
			protocol: PROTOCOL,
			sessionId: this.options.sessionId,
			pid: process.pid,
			startToken: processStartToken(process.pid),
			path: [...this.options.path],
			startedAt: new Date().toISOString(),
		};
		writeFileAtomic.sync(layout.server, JSON.stringify(info), { mode: 0o600 });
		this.polling = this.onNetworkFileSystem();
		await this.watch();
		this.reconcile();
	}

	async close(): Promise<void> {
		this.closed = true;
		for (const controller of this.inFlight.values()) controller.abort();
		await this.watcher?.close();
		this.watcher = null;
		removeQuietly(this.options.layout.server);
	}

	/** List `requests/` and handle anything not yet seen; drop what expired or whose asker is gone. */
	reconcile(): void {
		if (this.closed) return;
		let names: string[];
		try {
			names = readdirSync(this.options.layout.requests);
		} catch (error) {
			this.options.log.write("server.list_failed", {
				dir: this.options.layout.requests,
				error: String(error),
			});
			return;
		}
		const present = new Set<string>();
		for (const name of names) {
			const id = requestIdOf(name);
			if (id === null) continue;
			present.add(id);
			void this.handle(id);
		}
		for (const id of this.handled) if (!present.has(id)) this.handled.delete(id);
		this.sweepClaims(present);
	}

	private async watch(): Promise<void> {
		const { watch } = await import("chokidar");
		if (this.closed) return;
		const watcher = watch(this.options.layout.requests, {
			depth: 0,
			ignoreInitial: true,
			awaitWriteFinish: false,
			atomic: false,
			usePolling: this.polling,
			...(this.polling ? { interval: 200 } : {}),
		});
		watcher.on("add", (file) => this.onFile(file));
		watcher.on("change", (file) => this.onFile(file));
		watcher.on("unlink", (file) => this.onGone(file));
		watcher.on("error", (error) => this.onWatchError(error));
		await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
		this.watcher = watcher;
	}

	private onFile(file: string): void {
		const id = requestIdOf(basename(file));
		if (id !== null) void this.handle(id);
	}

	/** A request file that disappears while we decide it: the child cancelled or finished waiting. */
	private onGone(file: string): void {
		const id = requestIdOf(basename(file));
		if (id === null) return;
		this.inFlight.get(id)?.abort();
		this.handled.delete(id);
		if (!this.inFlight.has(id)) {
			removeQuietly(join(this.options.layout.claims, id));
			removeQuietly(responseFile(this.options.layout, id));
		}
	}

	private onWatchError(error: unknown): void {
		const code = typeof error === "object" && error !== null ? Reflect.get(error, "code") : undefined;
		this.options.log.write("server.watch_error", {
			dir: this.options.layout.requests,
			error: String(error),
			code,
		});
		if (!this.polling && (code === "ENOSPC" || code === "EMFILE")) {
			this.options.log.write("server.polling_fallback", { reason: `file watching is exhausted (${code})` });
			this.polling = true;
			void this.watcher?.close().then(() => this.watch());
		}
		this.reconcile();
	}

	private onNetworkFileSystem(): boolean {
		try {
			const type = statfsSync(this.options.layout.requests).type;
			if (!NETWORK_FS.has(type)) return false;
			this.options.log.write("server.polling_fallback", {
				reason: `network file system (type 0x${type.toString(16)})`,
			});
			return true;
		} catch {
			return false;
		}
	}

	private async handle(id: string): Promise<void> {
		if (this.closed || this.handled.has(id) || this.inFlight.has(id)) return;
		this.handled.add(id);
		const { layout, log } = this.options;
		const file = requestFile(layout, id);
		const read = readInboxFile(file, MAX_REQUEST_BYTES);
		if (!read.ok) {
			if (!read.missing) this.discard(id, file, `unreadable request: ${read.reason}`);
			return;
		}
		const request = parseRequest(read.text);
		if (typeof request === "string") return this.discard(id, file, request);
		if (request.id !== id) return this.discard(id, file, "the request's id does not match its file name");
		if (!createExclusive(join(layout.claims, id), String(process.pid)).created) return;
		if (Date.parse(request.expiresAt) <= Date.now()) {
			log.write("server.expired", { requestId: id });
			this.respond(request, {
				decision: "deny",
				scope: "once",
				grants: [],
				source: { kind: "unavailable", reason: "the request expired before anyone answered" },
			});
			return;
		}
		// A parked ask outlives its asker (the answer goes to the parked store): only a waiting one is watched.
		const parked = request.unanswered === "defer";
		if (!parked && request.requesterPid !== process.pid && !processAlive(request.requesterPid)) {
			this.discard(id, file, "the asking process is gone");
			return;
		}
		const controller = new AbortController();
		this.inFlight.set(id, controller);
		this.options.onPendingChange?.(this.inFlight.size);
		const watchRequester =
			parked || request.requesterPid === process.pid
				? null
				: setInterval(() => {
						if (!processAlive(request.requesterPid)) controller.abort();
					}, LIVENESS_INTERVAL_MS);
		try {
			const answer = await this.options.decide({ request, signal: controller.signal });
			if (parked) {
				removeQuietly(file);
				removeQuietly(join(layout.claims, id));
			} else if (controller.signal.aborted) {
				log.write("server.withdrawn", { requestId: id });
				removeQuietly(file);
			} else {
				this.respond(request, answer);
			}
		} catch (error) {
			log.write("server.decide_failed", { requestId: id, error: String(error) });
			this.respond(request, {
				decision: "deny",
				scope: "once",
				grants: [],
				source: { kind: "gate_error", reason: String(error).slice(0, 2000) },
			});
		} finally {
			if (watchRequester) clearInterval(watchRequester);
			this.inFlight.delete(id);
			this.options.onPendingChange?.(this.inFlight.size);
		}
	}

	private respond(request: ForwardRequest, answer: ServerAnswer): void {
		const response: ForwardResponse = {
			protocol: PROTOCOL,
			requestId: request.id,
			actionHash: request.actionHash,
			decision: answer.decision,
			scope: answer.scope,
			grants: answer.grants,
			...(answer.reason ? { reason: answer.reason } : {}),
			source: answer.source,
			responderSessionId: this.options.sessionId,
			respondedAt: new Date().toISOString(),
		};
		try {
			const written = createExclusive(
				responseFile(this.options.layout, request.id),
				JSON.stringify(response),
			);
			if (!written.created) this.options.log.write("server.already_answered", { requestId: request.id });
		} catch (error) {
			this.options.log.write("server.respond_failed", { requestId: request.id, error: String(error) });
		}
	}

	/** Hostile or broken files are logged and removed: nothing in them is ever acted on. */
	private discard(id: string, file: string, reason: string): void {
		this.options.log.write("server.request_rejected", { requestId: id, reason });
		removeQuietly(file);
	}

	private sweepClaims(present: ReadonlySet<string>): void {
		let claims: string[];
		try {
			claims = readdirSync(this.options.layout.claims);
		} catch {
			return;
		}
		for (const name of claims) {
			if (REQUEST_ID.test(name) && !present.has(name) && !this.inFlight.has(name)) {
				removeQuietly(join(this.options.layout.claims, name));
				removeQuietly(responseFile(this.options.layout, name));
			}
		}
	}
}

function parseRequest(text: string): ForwardRequest | string {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return "the request is not JSON";
	}
	const parsed = forwardRequestSchema.safeParse(raw);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return `the request does not match the protocol (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`;
	}
	return parsed.data;
}

/** Only `<id>.json` with a well-formed id is a request: temp files, dotfiles and path tricks are ignored. */
function requestIdOf(name: string): string | null {
	if (!name.endsWith(".json")) return null;
	const id = name.slice(0, -".json".length);
	return REQUEST_ID.test(id) ? id : null;
}

function removeQuietly(file: string): void {
	try {
		unlinkSync(file);
	} catch {
		// Already gone.
	}
}
