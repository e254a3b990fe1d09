/**
 * Zod schemas built on first use instead of at module load. Building one costs real time (zod clones and
 * initializes every node), and the gate module loads at every session start, where a run with no config file and
 * no hub traffic uses almost none of them.
 */
import type * as z from "./zod.ts";

/** A getter that builds the schema on its first call and returns that same schema on every later call. */
export function lazySchema<Schema extends z.core.$ZodType>(build: () => Schema): () => Schema {
	let built: Schema | undefined;
	return () => {
		built ??= build();
		return built;
	};
}
