import type { ChainStep } from "../audit/audit-entry.ts";
import { DEFAULT_LINK_TIMEOUT_MS } from "../policy/config-schema.ts";
import { capSourceText } from "../provenance/decision-source.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import type { AuthorizerLink, AuthorizerRequest, LinkVerdict } from "./authorizer-link.ts";

export interface ChainDecision {
	readonly link: string;
	readonly verdict: "allow" | "deny";
	readonly reason?: string;
}

export interface ChainOutcome {
	/** The first decisive link, or null when every link deferred, failed or was missing. */
	readonly decided: ChainDecision | null;
	readonly steps: readonly ChainStep[];
}

export interface ChainOptions {
	readonly timeoutMs?: number;
	readonly lookup: (name: string) => AuthorizerLink | undefined;
}

type LinkRequest = Omit<AuthorizerRequest, "signal">;

/**
 * Run the enabled links in order. The first allow or deny decides; defer passes on. A link that throws,
 * answers garbage or runs out of time decided nothing: the step is recorded and the chain moves on.
 */
export async function runAuthorizerChain(
	names: readonly string[],
	request: LinkRequest,
	options: ChainOptions,
): Promise<ChainOutcome> {
	const steps: ChainStep[] = [];
	const timeoutMs = options.timeoutMs ?? DEFAULT_LINK_TIMEOUT_MS;
	// Links are other people's code, and these are the very objects the gate decides, the dialog shows and
	// pi runs: a link may read them, never change them.
	deepFreeze(request.input);
	deepFreeze(request.parts);
	deepFreeze(request.origin);
	for (const name of names) {
		const link = options.lookup(name);
		if (!link) {
			steps.push({ link: name, result: "unregistered", ms: 0 });
			continue;
		}
		const started = performance.now();
		const outcome = await callLink(link, request, timeoutMs);
		const ms = Math.round((performance.now() - started) * 1000) / 1000;
		if (outcome.kind === "verdict") {
			const { verdict, reason } = outcome.value;
			steps.push({ link: name, result: verdict, ms, ...(reason ? { reason } : {}) });
			if (verdict !== "defer")
				return { decided: { link: name, verdict, ...(reason ? { reason } : {}) }, steps };
		} else {
			steps.push({ link: name, result: outcome.kind, reason: outcome.reason, ms });
		}
	}
	return { decided: null, steps };
}

type LinkCall =
	| { kind: "verdict"; value: LinkVerdict }
	| { kind: "error"; reason: string }
	| { kind: "timeout"; reason: string };

async function callLink(link: AuthorizerLink, request: LinkRequest, timeoutMs: number): Promise<LinkCall> {
	const controller = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<LinkCall>((resolve) => {
		timer = setTimeout(() => {
			controller.abort();
			resolve({ kind: "timeout", reason: `no answer within ${timeoutMs} ms` });
		}, timeoutMs);
	});
	const answer = (async (): Promise<LinkCall> => {
		try {
			const value = await link({ ...request, signal: controller.signal });
			return readVerdict(value);
		} catch (error) {
			return { kind: "error", reason: capSourceText(describeThrown(error)) };
		}
	})();
	try {
		return await Promise.race([answer, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

const linkVerdictSchema = lazySchema(() =>
	z.object({
		verdict: z.enum(["allow", "deny", "defer"]),
		reason: z.optional(z.string()),
	}),
);

/** Links are other people's code: their answer is parsed, not trusted to match the type. */
function readVerdict(value: unknown): LinkCall {
	const parsed = linkVerdictSchema().safeParse(value);
	if (!parsed.success) {
		return { kind: "error", reason: "the link returned something other than {verdict: allow|deny|defer}" };
	}
	const { verdict, reason } = parsed.data;
	const text = reason === undefined ? undefined : capSourceText(reason);
	return { kind: "verdict", value: text ? { verdict, reason: text } : { verdict } };
}

/** A link may throw anything, including a value whose conversion to text throws again. */
function describeThrown(error: unknown): string {
	try {
		return errorMessage(error);
	} catch {
		return "the link threw a value that cannot be shown as text";
	}
}

/** Freeze an object graph in place (plain objects and arrays; already-frozen parts are skipped). */
export function deepFreeze(value: unknown): void {
	if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
	Object.freeze(value);
	for (const key of Reflect.ownKeys(value)) {
		deepFreeze(Reflect.get(value, key));
	}
}
