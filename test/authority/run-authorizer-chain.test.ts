import { describe, expect, it } from "vitest";
import { chainStepSchema } from "../../src/audit/audit-entry.ts";
import type {
	AuthorizerLink,
	AuthorizerRequest,
	LinkVerdict,
	PolicyQuery,
} from "../../src/authority/authorizer-link.ts";
import { runAuthorizerChain } from "../../src/authority/run-authorizer-chain.ts";
import { MAX_SOURCE_TEXT } from "../../src/provenance/decision-source.ts";

/** Links in these tests never need the policy; one that asks gets a plain, fixed answer. */
const policy: PolicyQuery = {
	decide: async () => ({ mode: "ask", tier: "write", actionHash: "h", basis: "test policy" }),
};

const request: Omit<AuthorizerRequest, "signal"> = {
	tool: "bash",
	input: { command: "git push origin main" },
	cwd: "/work/project",
	tier: "network-egress",
	parts: [],
	actionHash: "c".repeat(64),
	preview: "git push origin main",
	origin: { kind: "human" },
	sessionId: "session-1",
	why: "the network-egress tier asks (built-in default)",
	forwarded: false,
	policy,
};

/** A chain over an in-test table of links, recording which ones ran and the request each one saw. */
function chainOf(links: Record<string, AuthorizerLink>) {
	const calls: string[] = [];
	const seen: AuthorizerRequest[] = [];
	const lookup = (name: string): AuthorizerLink | undefined => {
		const link = links[name];
		if (!link) return undefined;
		return (req) => {
			calls.push(name);
			seen.push(req);
			return link(req);
		};
	};
	return {
		calls,
		seen,
		run: (names: readonly string[], timeoutMs?: number) =>
			runAuthorizerChain(names, request, { lookup, ...(timeoutMs ? { timeoutMs } : {}) }),
	};
}

const never = (): Promise<never> => new Promise(() => undefined);

/** A link as untyped JavaScript can write it: the type system cannot stop its answer, so the chain must. */
function untypedLink(returns: unknown): AuthorizerLink {
	const fn: unknown = () => returns;
	if (typeof fn !== "function") throw new Error("unreachable");
	return (request) => Reflect.apply(fn, undefined, [request]);
}

describe("runAuthorizerChain: order and verdicts", () => {
	it("the first decisive link wins and later links are not asked", async () => {
		const chain = chainOf({
			a: () => ({ verdict: "defer" }),
			b: async () => ({ verdict: "deny", reason: "change freeze" }),
			c: () => ({ verdict: "allow" }),
		});
		const outcome = await chain.run(["a", "b", "c"]);
		expect(outcome.decided).toEqual({ link: "b", verdict: "deny", reason: "change freeze" });
		expect(outcome.steps.map((s) => [s.link, s.result, s.reason])).toEqual([
			["a", "defer", undefined],
			["b", "deny", "change freeze"],
		]);
		expect(chain.calls).toEqual(["a", "b"]);
	});

	it("an allow decides the same way", async () => {
		const outcome = await chainOf({ ok: () => ({ verdict: "allow" }) }).run(["ok"]);
		expect(outcome.decided).toEqual({ link: "ok", verdict: "allow" });
	});

	it("when every link defers, nothing is decided and every step is recorded in order", async () => {
		const chain = chainOf({
			one: () => ({ verdict: "defer", reason: "not mine" }),
			two: async () => ({ verdict: "defer" }),
		});
		const outcome = await chain.run(["two", "one", "two"]);
		expect(outcome.decided).toBeNull();
		expect(outcome.steps.map((s) => `${s.link}:${s.result}`)).toEqual([
			"two:defer",
			"one:defer",
			"two:defer",
		]);
		expect(outcome.steps[1]?.reason).toBe("not mine");
	});

	it("an empty chain decides nothing", async () => {
		expect(await chainOf({}).run([])).toEqual({ decided: null, steps: [] });
	});

	it("a configured name with no registered link is an `unregistered` step and the chain moves on", async () => {
		const outcome = await chainOf({ real: () => ({ verdict: "allow" }) }).run(["ghost", "real"]);
		expect(outcome.steps).toEqual([
			{ link: "ghost", result: "unregistered", ms: 0 },
			expect.objectContaining({ link: "real", result: "allow" }),
		]);
		expect(outcome.decided?.link).toBe("real");
	});

	it("each link sees the request plus its own abort signal", async () => {
		const chain = chainOf({ a: () => ({ verdict: "defer" }), b: () => ({ verdict: "defer" }) });
		await chain.run(["a", "b"]);
		const [first, second] = chain.seen;
		expect(first).toMatchObject({
			tool: "bash",
			actionHash: request.actionHash,
			why: request.why,
			forwarded: false,
		});
		expect(first?.signal).toBeInstanceOf(AbortSignal);
		expect(first?.signal).not.toBe(second?.signal);
		expect(first?.signal.aborted).toBe(false);
		await expect(first?.policy.decide({ tool: "read", input: {} })).resolves.toMatchObject({ mode: "ask" });
	});
});

describe("runAuthorizerChain: links that fail decide nothing", () => {
	it("a link that throws is an `error` step with its message, and the chain continues", async () => {
		const chain = chainOf({
			sync: () => {
				throw new Error("database down");
			},
			async: async () => {
				throw new TypeError("bad input");
			},
			last: () => ({ verdict: "deny" }),
		});
		const outcome = await chain.run(["sync", "async", "last"]);
		expect(outcome.steps.map((s) => [s.link, s.result, s.reason])).toEqual([
			["sync", "error", "database down"],
			["async", "error", "bad input"],
			["last", "deny", undefined],
		]);
		expect(outcome.decided).toEqual({ link: "last", verdict: "deny" });
	});

	it.each<[string, unknown]>([
		["a string", "just a string"],
		["a number", 42],
		["undefined", undefined],
		[
			"an object with a throwing toString",
			{
				toString: () => {
					throw new Error("nope");
				},
			},
		],
		["a null-prototype object", Object.create(null)],
		["a symbol", Symbol("s")],
		["an Error whose message is not a string", Object.assign(new Error(), { message: 42 })],
	])("a link that throws %s is an `error` step, not a crash", async (_name, thrown) => {
		const outcome = await chainOf({
			bad: () => {
				throw thrown;
			},
			next: () => ({ verdict: "allow" }),
		}).run(["bad", "next"]);
		expect(outcome.steps[0]).toMatchObject({ link: "bad", result: "error" });
		expect(typeof outcome.steps[0]?.reason).toBe("string");
		expect(outcome.decided?.link).toBe("next");
	});

	it.each<[string, unknown]>([
		["undefined", undefined],
		["null", null],
		["a bare string", "allow"],
		["true", true],
		["an unknown verdict", { verdict: "maybe" }],
		["an uppercase verdict", { verdict: "ALLOW" }],
		["a numeric reason", { verdict: "allow", reason: 5 }],
		["an array", [{ verdict: "allow" }]],
	])("a link returning %s is an `error` step (its answer is parsed, not trusted)", async (_name, value) => {
		const garbage = untypedLink(value);
		const outcome = await chainOf({ garbage, next: () => ({ verdict: "deny" }) }).run(["garbage", "next"]);
		expect(outcome.steps[0]).toMatchObject({ link: "garbage", result: "error" });
		expect(outcome.steps[0]?.reason).toMatch(/verdict/);
		expect(outcome.decided).toEqual({ link: "next", verdict: "deny" });
	});

	it("a link that does not answer in time is a `timeout` step, its signal is aborted, and the chain moves on", async () => {
		let signal: AbortSignal | undefined;
		const chain = chainOf({
			slow: (req) => {
				signal = req.signal;
				return never();
			},
			fast: () => ({ verdict: "allow", reason: "fine" }),
		});
		const started = performance.now();
		const outcome = await chain.run(["slow", "fast"], 50);
		expect(performance.now() - started).toBeGreaterThanOrEqual(45);
		expect(outcome.steps[0]).toMatchObject({
			link: "slow",
			result: "timeout",
			reason: "no answer within 50 ms",
		});
		expect(outcome.steps[0]?.ms).toBeGreaterThanOrEqual(45);
		expect(signal?.aborted).toBe(true);
		expect(outcome.decided).toEqual({ link: "fast", verdict: "allow", reason: "fine" });
	});

	it("an answer that arrives after the timeout is ignored", async () => {
		let answer: Promise<LinkVerdict> | undefined;
		const late: AuthorizerLink = () => {
			answer = new Promise((resolve) => setTimeout(() => resolve({ verdict: "allow" }), 80));
			return answer;
		};
		const outcome = await chainOf({ late }).run(["late"], 20);
		expect(outcome.decided).toBeNull();
		expect(outcome.steps[0]?.result).toBe("timeout");
		// The late answer arrives; whatever the chain does with it has run one turn later.
		await answer;
		await new Promise((resolve) => setImmediate(resolve));
		expect(outcome.decided).toBeNull();
	});

	it("a link that rejects after timing out does not surface as an unhandled rejection", async () => {
		const rejectsLate: AuthorizerLink = (req) =>
			new Promise((_resolve, reject) =>
				req.signal.addEventListener("abort", () => reject(new Error("aborted"))),
			);
		const outcome = await chainOf({ rejectsLate }).run(["rejectsLate"], 10);
		expect(outcome.steps[0]?.result).toBe("timeout");
		// The link rejected when its signal was aborted, before the chain moved on. Node reports a rejection nobody
		// handled once the microtasks of the turn it happened in have run: by the next turn it would have been.
		await new Promise((resolve) => setImmediate(resolve));
	});

	it("a link that answers in time keeps an un-aborted signal", async () => {
		let signal: AbortSignal | undefined;
		await chainOf({
			quick: (req) => {
				signal = req.signal;
				return { verdict: "defer" };
			},
		}).run(["quick"], 1000);
		expect(signal?.aborted).toBe(false);
	});
});

describe("runAuthorizerChain: what it records is readable back", () => {
	it("caps verdict and error reasons, never splitting a surrogate pair", async () => {
		const long = `${"r".repeat(MAX_SOURCE_TEXT - 1)}😀${"s".repeat(5000)}`;
		const outcome = await chainOf({
			thrower: () => {
				throw new Error(long);
			},
			talker: () => ({ verdict: "deny", reason: long }),
		}).run(["thrower", "talker"]);
		for (const step of outcome.steps) {
			expect(step.reason?.length).toBeLessThanOrEqual(MAX_SOURCE_TEXT);
			expect(step.reason).toBe("r".repeat(MAX_SOURCE_TEXT - 1));
		}
		expect(outcome.decided?.reason).toBe("r".repeat(MAX_SOURCE_TEXT - 1));
	});

	it("every step it records passes the audit log's chain-step schema", async () => {
		const outcome = await chainOf({
			a: () => ({ verdict: "defer", reason: "x".repeat(10_000) }),
			b: () => {
				throw new Error("y".repeat(10_000));
			},
			c: () => never(),
			d: () => ({ verdict: "allow" }),
		}).run(["a", "ghost", "b", "c", "d"], 10);
		expect(outcome.steps).toHaveLength(5);
		for (const step of outcome.steps) expect(chainStepSchema().safeParse(step).success).toBe(true);
	});
});
