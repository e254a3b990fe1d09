/**
 * zod as all of `src/` imports it (`import * as z`): `zod/mini` (adr/0029), configured here before any schema is
 * built. Unlike classic zod, `zod/mini` does not set its English messages by itself.
 *
 * zod compiles a fast path for each object schema (with `new Function`) on its first parse: ~2–3 ms on the config
 * schema's first parse, after which each parse is ~20–40 µs quicker than without it. A session parses most schemas
 * a few times, so it stays off; a root serving many forwarded asks pays those microseconds per request, far below
 * the request's round trip. The gate's bundle has its own copy of zod, so the setting reaches no other extension.
 */
import { config, locales } from "zod/mini";

config({ ...locales.en(), jitless: true });

// Re-exported name by name, not as one namespace object: the bundler then keeps only what `z.<name>` reaches.
export * from "zod/mini";
