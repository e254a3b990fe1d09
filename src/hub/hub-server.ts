import { createHash } from "node:crypto";
import { lstatSync, readdirSync, statfsSync } from "node:fs";
import { basename, join } from "node:path";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { removeQuietly } from "../vocabulary/remove-quietly.ts";
import { LIVENESS_INTERVAL_MS, processAlive, processStartToken, sameProcessAlive } from "./liveness.ts";
import { createExclusive, ensurePrivateDir, readInboxFile, writePrivateFileSync } from "./private-files.ts";
import type { ServerInfo } from "./protocol.ts";
import {
	type ForwardRequest,
	type ForwardResponse,
	forwardRequestSchema,
	type InboxLayout,
	MAX_REQUEST_BYTES,
	PROTOCOL,
	REQUEST_ID,
	requestFile,
	responseFile,
} from "./protocol.ts";
import type { ServeOptions, ServerAnswer, ServingEndpoint } from "./transport.ts";

/** The parent's answer to one forwarded ask (the response file is built from it). */
export interface HubServerOptions extends ServeOptions {
	readonly layout: InboxLayout;
}

/** File systems where inotify sees nothing other machines or the host do: poll instead, and say so. */
const NETWORK_FS = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997, 0x5346414f]);

/**
 * The parent side of the hub: serves one inbox. It is woken by the file system (chokidar on `requests/`, no
 * timer while idle), lists the directory at start and after any watcher error (events can be lost), claims
 * each request exclusively (two instances on one inbox show it once), decides it, and creates the response
 * exclusively (the first answer wins).
 */
export class HubServer implements ServingEndpoint {
	private readonly options: HubServerOptions;
	private readonly inFlight = new Map<string, AbortController>();
	private readonly handled = new Set<string>();
	private watcher: { close(): Promise<void> } | null = null;
	private closed = false;
	private polling = false;
	/** Stops the wait for the current watcher's `ready` when it is replaced by a polling one. */
	private replacing: (() => void) | null = null;
	private rebuilding = false;
	private readonly startToken = processStartToken(process.pid);
	/** A claim names its owner, so a claim left by a server that died can be taken over. */
	private readonly claimMark = `${process.pid}:${this.startToken ?? ""}`;

	constructor(options: HubServerOptions) {
		this.options = options;
	}

	get layout(): InboxLayout {
		return this.options.layout;
	}

	/** Create the inbox (private), announce who serves it, start watching, and pick up what is already there. */
	async open(): Promise<void> {
		this.prepareInbox();
		this.polling = this.onNetworkFileSystem();
		await this.watch();
		this.reconcile();
	}

	private prepareInbox(): void {
		const { layout, base } = this.options;
		for (const dir of [layout.requests, layout.responses, layout.claims, layout.children]) {
			ensurePrivateDir(dir, base);
		}
		const info: ServerInfo = {
			protocol: PROTOCOL,
			sessionId: this.options.sessionId,
			pid: process.pid,
			startToken: this.startToken,
			path: [...this.options.path],
			startedAt: new Date().toISOString(),
		};
		writePrivateFileSync(layout.server, JSON.stringify(info), []);
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
			if (id === null) {
				this.rejectName(name);
				continue;
			}
			present.add(id);
			void this.handle(id);
		}
		for (const id of this.handled) if (!present.has(id)) this.handled.delete(id);
		this.sweepClaims();
	}

	private async watch(): Promise<void> {
		const { watch } = await import("chokidar");
		if (this.closed) return;
		const watcher = watch(this.options.layout.requests, {
			depth: 0,
			ignoreInitial: true,
			awaitWriteFinish: false,
			atomic: false,
			// A symlink in the inbox is reported as a file (and refused when read), never followed and watched.
			followSymlinks: false,
			// Only `<id>.json` names are requests: temp files (write-file-atomic's `<name>.json.<hash>`) and stray
			// files get no per-file watch, so leftovers cannot exhaust inotify watches.
			ignored: (file: string, stats?: { isFile(): boolean }) =>
				stats?.isFile() === true && !file.endsWith(".json"),
			usePolling: this.polling,
			...(this.polling ? { interval: 200 } : {}),
		});
		// chokidar derives add/unlink from a throttled directory re-read, which under load (a re-read slower than
		// its 1 s throttle window) drops whole bursts without an error; the raw file-system events still name
		// every file, so they drive the server too (handle() ignores repeats).
		watcher.on("raw", (_event, name) => this.onRaw(name));
		watcher.on("add", (file) => this.onFile(file));
		watcher.on("change", (file) => this.onFile(file));
		watcher.on("unlink", (file) => this.onGone(file));
		watcher.on("unlinkDir", (dir) => this.onDirGone(dir));
		// Known at once, not only once ready: exhausted inotify reports its error before `ready` (maybe instead of
		// it), and the switch to polling must close this watcher and stop waiting for it.
		this.watcher = watcher;
		const replaced = new Promise<void>((resolve) => {
			this.replacing = resolve;
		});
		watcher.on("error", (error) => this.onWatchError(error));
		await Promise.race([new Promise<void>((resolve) => watcher.once("ready", () => resolve())), replaced]);
		if (this.closed && this.watcher === watcher) {
			this.watcher = null;
			await watcher.close();
		}
	}

	/** File watching is exhausted (inotify instances or watches): poll from now on, and list what came meanwhile. */
	private async switchToPolling(code: string): Promise<void> {
		this.options.log.write("server.polling_fallback", { reason: `file watching is exhausted (${code})` });
		this.polling = true;
		const old = this.watcher;
		this.watcher = null;
		this.replacing?.();
		await old?.close().catch(() => undefined);
		if (this.closed) return;
		await this.watch();
		this.reconcile();
	}

	private onFile(file: string): void {
		const name = basename(file);
		const id = requestIdOf(name);
		if (id === null) this.rejectName(name);
		else void this.handle(id);
	}

	/**
	 * `requests/` itself was removed (a cleanup tool, a confused peer): the watcher is now deaf and children
	 * cannot write. Rebuild the inbox, watch again and list it.
	 */
	private onDirGone(dir: string): void {
		if (this.closed || this.rebuilding || dir !== this.options.layout.requests) return;
		this.rebuilding = true;
		this.options.log.write("server.inbox_removed", { dir });
		void this.rebuild()
			.catch((error: unknown) =>
				this.options.log.write("server.reopen_failed", { dir, error: String(error) }),
			)
			.finally(() => {
				this.rebuilding = false;
			});
	}

	/** A removal still in progress (rm -r of the whole inbox) can take the new directory too: check, retry. */
	private async rebuild(): Promise<void> {
		let failure: unknown = new Error("the inbox keeps disappearing");
		for (let attempt = 0; attempt < 5; attempt++) {
			const old = this.watcher;
			this.watcher = null;
			await old?.close();
			if (this.closed) return;
			try {
				this.prepareInbox();
				await this.watch();
			} catch (error) {
				failure = error;
				continue;
			}
			if (exists(this.options.layout.requests)) {
				this.reconcile();
				return;
			}
		}
		throw failure;
	}

	private onRaw(name: unknown): void {
		if (typeof name !== "string" || this.closed) return;
		const { requests } = this.options.layout;
		// An empty requests/ that is removed yields no unlinkDir, only a raw event naming the directory itself.
		if (basename(name) === basename(requests) && !exists(requests)) {
			this.onDirGone(requests);
			return;
		}
		const id = requestIdOf(basename(name));
		if (id === null) return;
		const file = requestFile(this.options.layout, id);
		if (exists(file)) void this.handle(id);
		else this.onGone(file);
	}

	/** A request file that disappears while we decide it: the child cancelled or finished waiting. */
	private onGone(file: string): void {
		const id = requestIdOf(basename(file));
		// chokidar's directory diff can report an unlink for a file that is still there (two overlapping
		// re-reads under load): only a request that is really gone withdraws its dialog.
		if (id === null || exists(file)) return;
		this.inFlight.get(id)?.abort();
		this.handled.delete(id);
		if (!this.inFlight.has(id)) {
			removeQuietly(join(this.options.layout.claims, id));
			removeQuietly(responseFile(this.options.layout, id));
		}
	}

	private onWatchError(error: unknown): void {
		const code = fsErrorCode(error);
		this.options.log.write("server.watch_error", {
			dir: this.options.layout.requests,
			error: String(error),
			code,
		});
		if (!this.polling && (code === "ENOSPC" || code === "EMFILE")) {
			void this.switchToPolling(code).catch((failure: unknown) =>
				this.options.log.write("server.polling_failed", { error: String(failure) }),
			);
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

	/** Never rejects: it runs detached from watcher events, where a rejection would crash the host process. */
	private async handle(id: string): Promise<void> {
		try {
			await this.serveRequest(id);
		} catch (error) {
			this.options.log.write("server.handle_failed", { requestId: id, error: String(error) });
		}
	}

	private async serveRequest(id: string): Promise<void> {
		if (this.closed || this.handled.has(id) || this.inFlight.has(id)) return;
		this.handled.add(id);
		const { layout, log } = this.options;
		const file = requestFile(layout, id);
		const claim = join(layout.claims, id);
		const read = readInboxFile(file, MAX_REQUEST_BYTES);
		if (!read.ok) {
			if (!read.missing) this.discard(id, file, `unreadable request: ${read.reason}`);
			return;
		}
		const request = parseRequest(read.text);
		if (typeof request === "string") return this.discard(id, file, request);
		if (request.id !== id) return this.discard(id, file, "the request's id does not match its file name");
		if (!this.claim(id)) return;
		// A parked ask outlives its asker (the answer goes to the parked store): only a waiting one is watched.
		const parked = request.unanswered === "defer";
		const requesterAlive = request.requesterPid === process.pid || processAlive(request.requesterPid);
		if (Date.parse(request.expiresAt) <= Date.now()) {
			log.write("server.expired", { requestId: id });
			if (!parked && requesterAlive) {
				this.respond(request, {
					decision: "deny",
					scope: "once",
					grants: [],
					source: { kind: "unavailable", reason: "the request expired before anyone answered" },
				});
			} else {
				// Nobody waits for an answer: sweep the request instead of leaving it (and its claim) forever.
				removeQuietly(file);
				removeQuietly(claim);
			}
			return;
		}
		if (!parked && !requesterAlive) {
			this.discard(id, file, "the asking process is gone");
			return;
		}
		const controller = new AbortController();
		this.inFlight.set(id, controller);
		const watchRequester =
			parked || request.requesterPid === process.pid
				? null
				: setInterval(() => {
						if (!processAlive(request.requesterPid)) controller.abort();
					}, LIVENESS_INTERVAL_MS);
		try {
			let answer: ServerAnswer | null = null;
			let failure: unknown = null;
			try {
				answer = await this.options.decide({ request, signal: controller.signal });
			} catch (error) {
				failure = error;
				log.write("server.decide_failed", { requestId: id, error: String(error) });
			}
			if (this.closed) {
				// The session is going away: leave the request for whoever serves this inbox next (a parked ask
				// outlives a restart; a waiting child sees server.json gone) and release the claim for them.
				log.write("server.closed_pending", { requestId: id });
				removeQuietly(claim);
			} else if (controller.signal.aborted) {
				// The child cancelled or died: whatever the callback returned (or threw) is for nobody.
				log.write("server.withdrawn", { requestId: id });
				removeQuietly(file);
				removeQuietly(claim);
			} else if (parked) {
				// The answer went to the parked store (or, after a failure, the ask stays parked unanswered).
				removeQuietly(file);
				removeQuietly(claim);
			} else {
				this.respond(
					request,
					answer ?? {
						decision: "deny",
						scope: "once",
						grants: [],
						source: { kind: "gate_error", reason: String(failure).slice(0, 2000) },
					},
				);
			}
		} finally {
			if (watchRequester) clearInterval(watchRequester);
			this.inFlight.delete(id);
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
		const file = responseFile(this.options.layout, request.id);
		const content = JSON.stringify(response);
		try {
			let written: ReturnType<typeof createExclusive>;
			try {
				written = createExclusive(file, content);
			} catch (error) {
				// `responses/` was removed under us: rebuild it (private) once rather than leave the child waiting.
				if (fsErrorCode(error) !== "ENOENT") throw error;
				ensurePrivateDir(this.options.layout.responses, this.options.base);
				written = createExclusive(file, content);
			}
			if (!written.created) this.options.log.write("server.already_answered", { requestId: request.id });
		} catch (error) {
			this.options.log.write("server.respond_failed", { requestId: request.id, error: String(error) });
			// The child is waiting for a file that will not come: taking its request away tells it at its next
			// liveness tick that nobody could answer (a removal needs no free space), not at its timeout.
			removeQuietly(requestFile(this.options.layout, request.id));
			removeQuietly(join(this.options.layout.claims, request.id));
			this.options.undelivered(request, errorMessage(error));
		}
	}

	/**
	 * Claim a request for this instance: the first claim wins. A claim whose owner process is gone (a server
	 * that crashed mid-decision) is taken over, else its request would stay unserved and unswept forever.
	 */
	private claim(id: string): boolean {
		const { layout } = this.options;
		const file = join(layout.claims, id);
		if (!this.acquire(id, file)) return false;
		// A free claim can also mean the ask was just answered and cleaned up by another server while we read
		// it: serve only a request that is still there and not answered yet (else this is a second dialog).
		if (!exists(requestFile(layout, id))) {
			removeQuietly(file);
			return false;
		}
		return !exists(responseFile(layout, id));
	}

	/** Hold `file` (a claim, or a takeover marker): create it, or take it over from a dead owner. */
	private acquire(id: string, file: string): boolean {
		return createExclusive(file, this.claimMark).created || this.takeOver(id, file);
	}

	/**
	 * Take over `file` (a claim, or a takeover marker) another instance holds, if its owner is gone. Servers in
	 * other processes may judge the same dead file at once, and removing it then creating ours is two steps:
	 * whoever removes second would remove the first taker's fresh one. So the takeover of one dead file is itself
	 * held, exclusively, through a marker named after that file and its content; only its holder removes the dead
	 * file, after checking it still is the one judged dead. A released file (gone since) is never removed, only
	 * created. A marker's owner can die too (killed between creating and removing it): that marker is taken over
	 * the same way, through a marker of its own, so a dead marker never blocks the dead claim behind it, and
	 * each dead file still has one taker.
	 */
	private takeOver(id: string, file: string): boolean {
		const owner = claimOwner(file);
		if (owner.state === "alive") return false;
		if (owner.state === "released") return createExclusive(file, this.claimMark).created;
		const marker = join(this.options.layout.claims, takeoverMarkerName(id, basename(file), owner.mark));
		if (!this.acquire(id, marker)) return false;
		try {
			const current = readInboxFile(file, 256);
			if (!current.ok || current.text !== owner.mark) return false;
			const what = basename(file) === id ? "claim" : "takeover marker";
			this.options.log.write("server.stale_claim", { requestId: id, what });
			removeQuietly(file);
			return createExclusive(file, this.claimMark).created;
		} finally {
			removeQuietly(marker);
		}
	}

	/** `<name>.json` that is not `<request id>.json` is nobody's request: log it and remove it. */
	private rejectName(name: string): void {
		if (!name.endsWith(".json")) return;
		this.options.log.write("server.request_rejected", { file: name, reason: "not a request id" });
		removeQuietly(join(this.options.layout.requests, name));
	}

	/** Hostile or broken files are logged and removed: nothing in them is ever acted on. */
	private discard(id: string, file: string, reason: string): void {
		this.options.log.write("server.request_rejected", { requestId: id, reason });
		removeQuietly(file);
	}

	/**
	 * Claims and responses whose request is gone. Checked against the file system now, not the listing: a
	 * request that arrived since may already be claimed by another server, and that claim must stay.
	 */
	private sweepClaims(): void {
		const { layout } = this.options;
		const gone = (id: string): boolean => !this.inFlight.has(id) && !exists(requestFile(layout, id));
		for (const name of listQuietly(layout.claims)) {
			const id = name.split(".takeover-")[0] ?? "";
			if (!REQUEST_ID.test(id) || !gone(id)) continue;
			removeQuietly(join(layout.claims, name));
			// A takeover marker (left by a server killed mid-takeover) has no response of its own.
			if (id === name) removeQuietly(responseFile(layout, id));
		}
		// A response whose request is gone has no reader left (its child finished or died).
		for (const name of listQuietly(layout.responses)) {
			const id = requestIdOf(name);
			if (id !== null && gone(id)) removeQuietly(join(layout.responses, name));
		}
	}
}

type ClaimOwner =
	| { readonly state: "alive" }
	| { readonly state: "released" }
	/** `mark`: the claim's exact content, which names the dead owner. */
	| { readonly state: "dead"; readonly mark: string };

/** Whether the claim's owner (`pid:start token`; older claims carry only the pid) still runs. */
function claimOwner(file: string): ClaimOwner {
	const read = readInboxFile(file, 256);
	if (!read.ok) return { state: read.missing ? "released" : "alive" };
	const [pid, token] = read.text.trim().split(":");
	return sameProcessAlive(Number(pid), token ? token : null)
		? { state: "alive" }
		: { state: "dead", mark: read.text };
}

/**
 * `<id>.takeover-<hash>`: one name per dead file (the claim `<id>` or a marker) and its content, so one taker per
 * dead file. A claim's marker hashes its content alone, as servers of earlier versions name it.
 */
function takeoverMarkerName(id: string, deadName: string, deadMark: string): string {
	const named = deadName === id ? deadMark : `${deadName}\n${deadMark}`;
	return `${id}.takeover-${createHash("sha256").update(named).digest("hex").slice(0, 16)}`;
}

function parseRequest(text: string): ForwardRequest | string {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return "the request is not JSON";
	}
	const parsed = forwardRequestSchema().safeParse(raw);
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

/** Whether a name exists (a symlink counts; it is refused when read). Unknowable counts as gone. */
function exists(file: string): boolean {
	try {
		return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
	} catch {
		return false;
	}
}

function listQuietly(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}
