import { existsSync, type FSWatcher, watch } from "node:fs";
import { join } from "node:path";
import { readDecisionSource } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { removeQuietly } from "../vocabulary/remove-quietly.ts";
import { MAX_TIMER_MS } from "../vocabulary/timer-limit.ts";
import { LIVENESS_INTERVAL_MS, sameProcessAlive } from "./liveness.ts";
import { checkPrivateDir, readInboxFile, writePrivateFile, writePrivateFileSync } from "./private-files.ts";
import {
	type ForwardRequest,
	type ForwardResponse,
	forwardResponseSchema,
	type InboxLayout,
	inboxLayoutAt,
	MAX_RESPONSE_BYTES,
	readServerInfo,
	requestFile,
	responseFile,
} from "./protocol.ts";
import type { ParentTarget } from "./resolve-parent.ts";
import type { ForwardOptions, ForwardOutcome } from "./transport.ts";

/**
 * The child side of one forwarded ask: write the request into the parent's inbox, then wait for the
 * response with a directory watch (armed before the request is written, and checked once right after, so a
 * fast answer cannot slip by). While waiting, the parent is checked every 500 ms (its process, and that it
 * still serves the inbox and still holds the request): a parent that died, closed or dropped the request is
 * noticed within the 2 s the hub promises, and reported as unavailable, never as a denial.
 */
export async function forwardAsk(
	target: ParentTarget,
	request: ForwardRequest,
	options: ForwardOptions,
): Promise<ForwardOutcome> {
	const layout = inboxLayoutAt(target.inbox);
	const parent = parentProcess(target, layout);
	if (parent.kind === "unavailable") return parent;
	try {
		checkPrivateDir(layout.root);
		checkPrivateDir(layout.requests);
		checkPrivateDir(layout.responses);
	} catch (error) {
		return { kind: "unavailable", reason: `the parent's inbox cannot be used: ${errorMessage(error)}` };
	}
	return new Promise<ForwardOutcome>((resolve) => {
		const waiter = new ResponseWaiter(layout, request, parent.check, options, resolve);
		waiter.start();
	});
}

/** Why the parent cannot take an ask now: its process is gone or it no longer serves its inbox; null when it can. */
export function parentUnreachable(target: ParentTarget): string | null {
	const parent = parentProcess(target, inboxLayoutAt(target.inbox));
	return parent.kind === "unavailable" ? parent.reason : null;
}

type ParentProcess =
	| { readonly kind: "ok"; readonly check: () => boolean }
	| { readonly kind: "unavailable"; readonly reason: string };

function parentProcess(target: ParentTarget, layout: InboxLayout): ParentProcess {
	const info = readServerInfo(layout.server);
	if (!info || info.sessionId !== target.sessionId) {
		return { kind: "unavailable", reason: `the parent session ${target.sessionId} is not serving its inbox` };
	}
	// A parent session that closed (its process may live on: /new, /reload, an in-process parent) removed it.
	const serving = (): boolean => readServerInfo(layout.server)?.sessionId === target.sessionId;
	if (target.location === "same-process") return { kind: "ok", check: serving };
	const pid = target.pid ?? info.pid;
	const token = pid === info.pid ? info.startToken : null;
	const check = (): boolean => sameProcessAlive(pid, token) && serving();
	if (!check())
		return { kind: "unavailable", reason: `the parent session ${target.sessionId} (pid ${pid}) is gone` };
	return { kind: "ok", check };
}

class ResponseWaiter {
	private watcher: FSWatcher | null = null;
	private liveness: NodeJS.Timeout | null = null;
	private deadline: NodeJS.Timeout | null = null;
	private settled = false;
	/** When the request file was written, for re-announcing one that no server picked up. */
	private writtenAt = 0;
	private retouched = false;
	private readonly content: string;
	private readonly requestPath: string;
	private readonly responsePath: string;
	private readonly responseName: string;

	private readonly layout: InboxLayout;
	private readonly request: ForwardRequest;
	private readonly parentAlive: () => boolean;
	private readonly options: ForwardOptions;
	private readonly resolve: (outcome: ForwardOutcome) => void;

	constructor(
		layout: InboxLayout,
		request: ForwardRequest,
		parentAlive: () => boolean,
		options: ForwardOptions,
		resolve: (outcome: ForwardOutcome) => void,
	) {
		this.layout = layout;
		this.request = request;
		this.parentAlive = parentAlive;
		this.options = options;
		this.resolve = resolve;
		this.requestPath = requestFile(layout, request.id);
		this.content = JSON.stringify(request);
		this.responsePath = responseFile(layout, request.id);
		this.responseName = `${request.id}.json`;
	}

	start(): void {
		const { signal } = this.options;
		if (signal?.aborted) {
			this.finish({ kind: "unavailable", reason: "the call was cancelled" });
			return;
		}
		try {
			this.watcher = watch(this.layout.responses, { persistent: false }, (_event, name) => {
				if (name === null || name === this.responseName) this.check();
			});
			this.watcher.on("error", () => this.fallbackToPolling());
		} catch (error) {
			this.options.log.write("client.watch_failed", {
				dir: this.layout.responses,
				error: errorMessage(error),
			});
			this.fallbackToPolling();
		}
		signal?.addEventListener("abort", this.onAbort, { once: true });
		this.deadline = setTimeout(
			() =>
				this.finish({
					kind: "unavailable",
					reason: `no answer within ${Math.round(this.options.timeoutMs / 1000)} s`,
				}),
			// Node turns a delay beyond 2^31-1 ms into 1 ms: a far expiry must not end the wait at once.
			Math.min(this.options.timeoutMs, MAX_TIMER_MS),
		);
		this.liveness = setInterval(() => this.checkParent(), LIVENESS_INTERVAL_MS);
		// A request someone waits on is small and needs no fsync: written here and now it is in the inbox in a
		// fraction of a millisecond, where the asynchronous writer's thread-pool round trips, queued behind a busy
		// pi's other work, cost several (bench figure 11).
		try {
			writePrivateFileSync(this.requestPath, this.content, [], { fsync: false });
		} catch (error) {
			this.finish({
				kind: "unavailable",
				reason: `could not write to the parent's inbox: ${errorMessage(error)}`,
			});
			return;
		}
		this.writtenAt = Date.now();
		this.check();
	}

	/** Every liveness tick: the parent is still there and still holds our request; and a missed event is caught. */
	private checkParent(): void {
		if (this.settled) return;
		if (!this.parentAlive()) {
			this.options.log.write("client.parent_gone", { requestId: this.request.id });
			this.finish({ kind: "unavailable", reason: "the parent session went away while the ask was pending" });
			return;
		}
		this.check();
		// The request was written before the first tick (synchronously, in start): from then on, its
		// disappearance means the parent dropped it.
		if (this.settled) return;
		if (existsSync(this.requestPath)) {
			this.retouchIfUnclaimed();
			return;
		}
		this.options.log.write("client.request_dropped", { requestId: this.request.id });
		this.finish({
			kind: "unavailable",
			reason: "the parent removed the request without answering it (see the hub log)",
		});
	}

	/**
	 * A request no server claimed within RETOUCH_MS may be one whose file-system event the parent never got (an
	 * inotify queue overflow drops events without saying which): write it again, a new event for the same file.
	 * A server that saw it already claimed it, so this never makes a second dialog.
	 */
	private retouchIfUnclaimed(): void {
		if (this.retouched || Date.now() - this.writtenAt < RETOUCH_MS) return;
		if (existsSync(join(this.layout.claims, this.request.id))) return;
		// Once: a server that saw the request ignores it from then on, so a second write could not help.
		this.retouched = true;
		this.options.log.write("client.request_retouched", { requestId: this.request.id });
		writePrivateFile(this.requestPath, this.content, [], { fsync: false })
			.catch((error: unknown) =>
				this.options.log.write("client.retouch_failed", {
					requestId: this.request.id,
					error: errorMessage(error),
				}),
			)
			.finally(() => {
				// Ended while the write was in flight: take the request back out.
				if (this.settled) removeQuietly(this.requestPath);
			});
	}

	private readonly onAbort = (): void => {
		this.finish({ kind: "unavailable", reason: "the call was cancelled while the ask was pending" });
	};

	/** Watching failed (inotify exhausted, a file system without events): fall back to a slow poll, and say so. */
	private fallbackToPolling(): void {
		if (this.settled) return;
		this.watcher?.close();
		this.watcher = null;
		this.options.log.write("client.polling_fallback", { dir: this.layout.responses });
		const poll = setInterval(() => (this.settled ? clearInterval(poll) : this.check()), 100);
	}

	private check(): void {
		if (this.settled) return;
		const read = readInboxFile(this.responsePath, MAX_RESPONSE_BYTES);
		if (!read.ok) {
			if (!read.missing) this.reject(`the response file could not be read: ${read.reason}`);
			return;
		}
		const parsed = this.parseResponse(read.text);
		if (typeof parsed === "string") {
			this.reject(parsed);
			return;
		}
		// All-or-nothing and depth-capped: a decision whose provenance cannot be read is not obeyed.
		const source = readDecisionSource(parsed.source);
		if (source === null) this.reject("the response's DecisionSource is malformed or nested too deep");
		else this.finish({ kind: "answered", response: parsed, source });
	}

	/** The response if it is one we may obey, else what is wrong with it. */
	private parseResponse(text: string): ForwardResponse | string {
		let raw: unknown;
		try {
			raw = JSON.parse(text);
		} catch {
			return "the response is not JSON";
		}
		const parsed = forwardResponseSchema().safeParse(raw);
		if (!parsed.success) return "the response does not match the protocol";
		const response = parsed.data;
		if (response.requestId !== this.request.id || response.actionHash !== this.request.actionHash) {
			return "the response names another request or another action";
		}
		return response;
	}

	/** A response we cannot trust is never obeyed: the ask ends as unavailable (fail closed, no hang). */
	private reject(reason: string): void {
		this.options.log.write("client.response_rejected", { requestId: this.request.id, reason });
		this.finish({ kind: "unavailable", reason: `the parent's answer was refused: ${reason}` });
	}

	private finish(outcome: ForwardOutcome): void {
		if (this.settled) return;
		this.settled = true;
		this.watcher?.close();
		if (this.liveness) clearInterval(this.liveness);
		if (this.deadline) clearTimeout(this.deadline);
		this.options.signal?.removeEventListener("abort", this.onAbort);
		// Removing the request tells the parent the ask is over (it withdraws a dialog still showing it).
		removeQuietly(this.requestPath);
		removeQuietly(this.responsePath);
		this.resolve(outcome);
	}
}

/** How long a request may wait unclaimed before it is written again (a server claims what it sees at once). */
const RETOUCH_MS = 2000;

/**
 * Put a request into the parent's inbox without waiting for an answer (a parked ask: the answer goes to the
 * parked store). Returns why it could not be delivered, or null.
 */
export async function deliverRequest(target: ParentTarget, request: ForwardRequest): Promise<string | null> {
	const layout = inboxLayoutAt(target.inbox);
	try {
		await writePrivateFile(requestFile(layout, request.id), JSON.stringify(request), [
			layout.root,
			layout.requests,
		]);
		return null;
	} catch (error) {
		return errorMessage(error);
	}
}
