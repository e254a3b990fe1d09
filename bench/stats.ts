/** Order statistics for timing samples (nearest-rank on a sorted copy; the samples are not modified). */

export interface Summary {
	readonly count: number;
	readonly median: number;
	readonly p90: number;
	readonly p99: number;
	readonly min: number;
	readonly max: number;
}

export function sorted(samples: readonly number[]): number[] {
	return [...samples].sort((a, b) => a - b);
}

/** Nearest-rank percentile of already sorted samples (`p` in 0..1). NaN for no samples. */
export function percentileOf(sortedSamples: readonly number[], p: number): number {
	if (sortedSamples.length === 0) return Number.NaN;
	const rank = Math.ceil(p * sortedSamples.length) - 1;
	return sortedSamples[Math.min(sortedSamples.length - 1, Math.max(0, rank))] ?? Number.NaN;
}

export function median(samples: readonly number[]): number {
	const s = sorted(samples);
	if (s.length === 0) return Number.NaN;
	const mid = s.length >> 1;
	return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

export function summarize(samples: readonly number[]): Summary {
	const s = sorted(samples);
	return {
		count: s.length,
		median: median(s),
		p90: percentileOf(s, 0.9),
		p99: percentileOf(s, 0.99),
		min: s[0] ?? Number.NaN,
		max: s[s.length - 1] ?? Number.NaN,
	};
}
