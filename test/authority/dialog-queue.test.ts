import { describe, expect, it } from "vitest";
import { DialogQueue, type QueuePosition } from "../../src/authority/dialog-queue.ts";

/** A dialog the test answers by hand, recording when it was shown and at which position. */
function manualDialog() {
	let answer: (value: string) => void = () => undefined;
	let fail: (error: Error) => void = () => undefined;
	const shown: QueuePosition[] = [];
	const show = (position: () => QueuePosition): Promise<string> => {
		shown.push(position());
		return new Promise<string>((resolve, reject) => {
			answer = resolve;
			fail = reject;
		});
	};
	return { show, shown, answer: (v: string) => answer(v), fail: (e: Error) => fail(e) };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("DialogQueue", () => {
	it("shows one dialog at a time, first come first served", async () => {
		const queue = new DialogQueue();
		const [a, b, c] = [manualDialog(), manualDialog(), manualDialog()];
		const results = [
			queue.run({ id: "a" }, a.show),
			queue.run({ id: "b" }, b.show),
			queue.run({ id: "c" }, c.show),
		];
		await tick();
		expect([a.shown.length, b.shown.length, c.shown.length]).toEqual([1, 0, 0]);
		a.answer("A");
		await tick();
		expect([b.shown.length, c.shown.length]).toEqual([1, 0]);
		b.answer("B");
		await tick();
		c.answer("C");
		expect(await Promise.all(results)).toEqual(["A", "B", "C"]);
	});

	it("tells each dialog its position and the queue length when it is shown", async () => {
		const queue = new DialogQueue();
		const dialogs = [manualDialog(), manualDialog(), manualDialog()];
		dialogs.forEach((d, i) => void queue.run({ id: String(i) }, d.show));
		await tick();
		expect(dialogs[0]?.shown).toEqual([{ index: 1, total: 3 }]);
		dialogs[0]?.answer("x");
		await tick();
		expect(dialogs[1]?.shown).toEqual([{ index: 2, total: 3 }]);
		dialogs[1]?.answer("x");
		await tick();
		expect(dialogs[2]?.shown).toEqual([{ index: 3, total: 3 }]);
		dialogs[2]?.answer("x");
	});

	it("a position read later reflects asks queued meanwhile", async () => {
		const queue = new DialogQueue();
		let position: (() => QueuePosition) | undefined;
		let finish: () => void = () => undefined;
		void queue.run({ id: "first" }, (p) => {
			position = p;
			return new Promise<void>((resolve) => {
				finish = resolve;
			});
		});
		await tick();
		expect(position?.()).toEqual({ index: 1, total: 1 });
		void queue.run({ id: "second" }, async () => undefined);
		void queue.run({ id: "third" }, async () => undefined);
		expect(position?.()).toEqual({ index: 1, total: 3 });
		finish();
	});

	it("a dialog that rejects or throws does not block the ones after it", async () => {
		const queue = new DialogQueue();
		const failing = manualDialog();
		const rejected = queue.run({ id: "bad" }, failing.show);
		const thrown = queue.run({ id: "throws" }, () => {
			throw new Error("sync throw");
		});
		const after = queue.run({ id: "good" }, async () => "still shown");
		await tick();
		failing.fail(new Error("presenter broke"));
		await expect(rejected).rejects.toThrow("presenter broke");
		await expect(thrown).rejects.toThrow("sync throw");
		await expect(after).resolves.toBe("still shown");
		expect(queue.pending()).toEqual([]);
	});

	it("lists pending items and notifies listeners with snapshots as the queue changes", async () => {
		const queue = new DialogQueue();
		const snapshots: string[][] = [];
		const stop = queue.onChange((pending) => snapshots.push(pending.map((p) => p.id)));
		const a = manualDialog();
		const done = [queue.run({ id: "a" }, a.show), queue.run({ id: "b" }, async () => "b")];
		expect(queue.pending().map((p) => p.id)).toEqual(["a", "b"]);
		await tick();
		a.answer("a");
		await Promise.all(done);
		await tick();
		expect(snapshots).toEqual([["a"], ["a", "b"], ["b"], []]);
		stop();
		await queue.run({ id: "c" }, async () => "c");
		expect(snapshots).toHaveLength(4);
	});

	it("remove() drops an unshown item from the positions others see", async () => {
		const queue = new DialogQueue();
		const a = manualDialog();
		const b = { id: "b" };
		const c = manualDialog();
		void queue.run({ id: "a" }, a.show);
		void queue.run(b, async () => "b");
		void queue.run({ id: "c" }, c.show);
		queue.remove(b);
		expect(queue.pending().map((p) => p.id)).toEqual(["a", "c"]);
		queue.remove(b);
		expect(queue.pending()).toHaveLength(2);
		await tick();
		a.answer("a");
		await tick();
		await tick();
		expect(c.shown).toEqual([{ index: 2, total: 2 }]);
		c.answer("c");
	});

	it("a throwing listener neither breaks run() nor leaves an item stuck in the queue", async () => {
		const queue = new DialogQueue();
		const seen: number[] = [];
		queue.onChange(() => {
			throw new Error("status line bug");
		});
		queue.onChange((pending) => seen.push(pending.length));
		await expect(queue.run({ id: "x" }, async () => "shown")).resolves.toBe("shown");
		await tick();
		expect(queue.pending()).toEqual([]);
		expect(seen).toEqual([1, 0]);
	});
});
