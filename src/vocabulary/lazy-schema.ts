/**
 * Zod schemas built on first use instead of at module load. Building one costs real time (zod clones and
 * initializes every node), and the gate module loads at every session start, where a run with no config file and
 * no hub traffic uses almost none of them.
 */
import { type ZodType, z } from "zod";

/**
 * zod compiles a fast path for each object schema (with `new Function`) on its first parse. A session parses each
 * schema a few times, so compiling costs more than it saves: ~3 ms on the config schema's first parse alone. This
 * is the bundle's own copy of zod, so the setting reaches no other extension.
 */
z.config({ jitless: true });

/** A getter that builds the schema on its first call and returns that same schema on every later call. */
export function lazySchema<Schema extends ZodType>(build: () => Schema): () => Schema {
	let built: Schema | undefined;
	return () => {
		built ??= build();
		return built;
	};
}
