/**
 * Keeps the `limit` newest of a stream of items without holding the whole stream: memory stays at about twice
 * the limit. Newest means the latest time; among equal (or unreadable) times, the later line.
 */
export class NewestMatches<T> {
	private readonly limit: number;
	private items: { readonly item: T; readonly at: number; readonly seq: number }[] = [];
	private seen = 0;

	constructor(limit: number) {
		this.limit = limit;
	}

	add(item: T, time: string): void {
		const parsed = Date.parse(time);
		this.items.push({ item, at: Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed, seq: this.seen++ });
		if (this.items.length >= this.limit * 2) this.trim();
	}

	/** How many items were offered in all. */
	get total(): number {
		return this.seen;
	}

	newestFirst(): T[] {
		this.trim();
		return this.items.map((i) => i.item);
	}

	private trim(): void {
		this.items.sort((a, b) => (a.at === b.at ? b.seq - a.seq : b.at > a.at ? 1 : -1));
		this.items.length = Math.min(this.items.length, this.limit);
	}
}
