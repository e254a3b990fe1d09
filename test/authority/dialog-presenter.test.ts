import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dialogDeadline } from "../../src/authority/dialog-presenter.ts";

describe("dialogDeadline", () => {
	// The clock is the test's: advancing it runs every timer that falls due, so a timer that would fire has fired
	// by the time an assertion runs (the fake timers turn an overlong delay into 1 ms, as Node does).
	beforeEach(() => {
		vi.useFakeTimers();
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it("ends with `timeout` and aborts its signal when the time is up", () => {
		const deadline = dialogDeadline({ timeoutMs: 20 });
		expect(deadline.ended()).toBeNull();
		expect(deadline.signal.aborted).toBe(false);
		vi.advanceTimersByTime(40);
		expect(deadline.ended()).toBe("timeout");
		expect(deadline.signal.aborted).toBe(true);
		deadline.dispose();
	});

	it("ends with `withdrawn` when the caller cancels", () => {
		const caller = new AbortController();
		const deadline = dialogDeadline({ timeoutMs: 10_000, signal: caller.signal });
		caller.abort();
		expect(deadline.ended()).toBe("withdrawn");
		expect(deadline.signal.aborted).toBe(true);
		deadline.dispose();
	});

	it("is withdrawn at once when the caller's signal is already aborted", () => {
		const deadline = dialogDeadline({ timeoutMs: 10_000, signal: AbortSignal.abort() });
		expect(deadline.ended()).toBe("withdrawn");
		expect(deadline.signal.aborted).toBe(true);
		deadline.dispose();
	});

	it("keeps whichever ended first", () => {
		const caller = new AbortController();
		const timedOut = dialogDeadline({ timeoutMs: 10, signal: caller.signal });
		vi.advanceTimersByTime(30);
		caller.abort();
		expect(timedOut.ended()).toBe("timeout");
		timedOut.dispose();

		const other = new AbortController();
		const withdrawn = dialogDeadline({ timeoutMs: 20, signal: other.signal });
		other.abort();
		vi.advanceTimersByTime(40);
		expect(withdrawn.ended()).toBe("withdrawn");
		withdrawn.dispose();
	});

	it("after dispose, neither the timer nor the caller ends it", () => {
		const caller = new AbortController();
		const deadline = dialogDeadline({ timeoutMs: 10, signal: caller.signal });
		deadline.dispose();
		vi.advanceTimersByTime(30);
		caller.abort();
		expect(deadline.ended()).toBeNull();
		expect(deadline.signal.aborted).toBe(false);
	});

	it("a deadline longer than Node's timer range waits instead of firing at once", () => {
		for (const timeoutMs of [2 ** 31, 3_000_000 * 1000, Number.POSITIVE_INFINITY]) {
			const deadline = dialogDeadline({ timeoutMs });
			vi.advanceTimersByTime(20);
			expect(deadline.ended()).toBeNull();
			deadline.dispose();
		}
	});
});
