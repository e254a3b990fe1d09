/**
 * Zod schemas built on first use instead of at module load. Building one costs real time (zod clones and
 * initializes every node), and the gate module loads at every session start, where a run with no config file and
 * no hub traffic uses almost none of them. The schemas are written with `zod/mini` (adr/0029), which, unlike
 * classic zod, does not configure its English messages by itself.
 */
import * as z from "zod/mini";

/**
 * zod compiles a fast path for each object schema (with `new Function`) on its first parse: ~2–3 ms on the config
 * schema's first parse, after which each parse is ~20–40 µs quicker than without it. A session parses most schemas
 * a few times, so it stays off; a root serving many forwarded asks pays those microseconds per request, far below
 * the request's round trip. The gate's bundle has its own copy of zod, so the setting reaches no other extension.
 */
z.config({ ...z.locales.en(), jitless: true });

/** A getter that builds the schema on its first call and returns that same schema on every later call. */
export function lazySchema<Schema extends z.core.$ZodType>(build: () => Schema): () => Schema {
	let built: Schema | undefined;
	return () => {
		built ??= build();
		return built;
	};
}
