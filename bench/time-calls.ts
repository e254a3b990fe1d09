/** Per-call wall time of a synchronous function, in microseconds, after `warmup` untimed calls. */
export function timeCalls(iterations: number, warmup: number, run: () => unknown): number[] {
	let sink = 0;
	for (let i = 0; i < warmup; i++) if (run()) sink++;
	const samples = new Array<number>(iterations);
	for (let i = 0; i < iterations; i++) {
		const started = process.hrtime.bigint();
		if (run()) sink++;
		samples[i] = Number(process.hrtime.bigint() - started) / 1000;
	}
	// Keeps the results observable so the calls cannot be optimized away.
	if (sink < 0) console.log(sink);
	return samples;
}
