import { describe, expect, it } from "vitest";
import { dialogDeadline } from "../../src/authority/dialog-presenter.ts";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("dialogDeadline", () => {
	it("ends with `timeout` and aborts its signal when the time is up", async () => {
		const deadline = dialogDeadline({ timeoutMs: 20 });
		expect(deadline.ended()).toBeNull();
		expect(deadline.signal.aborted).toBe(false);
		await sleep(40);
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

	it("keeps whichever ended first", async () => {
		const caller = new AbortController();
		const timedOut = dialogDeadline({ timeoutMs: 10, signal: caller.signal });
		await sleep(30);
		caller.abort();
		expect(timedOut.ended()).toBe("timeout");
		timedOut.dispose();

		const other = new AbortController();
		const withdrawn = dialogDeadline({ timeoutMs: 20, signal: other.signal });
		other.abort();
		await sleep(40);
		expect(withdrawn.ended()).toBe("withdrawn");
		withdrawn.dispose();
	});

	it("after dispose, neither the timer nor the caller ends it", async () => {
		const caller = new AbortController();
		const deadline = dialogDeadline({ timeoutMs: 10, signal: caller.signal });
		deadline.dispose();
		await sleep(30);
		caller.abort();
		expect(deadline.ended()).toBeNull();
		expect(deadline.signal.aborted).toBe(false);
	});

	it("a deadline longer than Node's timer range waits instead of firing at once", async () => {
		for (const timeoutMs of [2 ** 31, 3_000_000 * 1000, Number.POSITIVE_INFINITY]) {
			const deadline = dialogDeadline({ timeoutMs });
			await sleep(20);
			expect(deadline.ended()).toBeNull();
			deadline.dispose();
		}
	});
});
