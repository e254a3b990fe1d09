/**
 * The parser's WebAssembly is compiled by V8's baseline compiler (Liftoff) only, never tiered up by its
 * optimizing compiler (adr/0028). By default V8 optimizes the grammar's and the runtime's functions in the
 * background as they run: in a short pi run that is about 0.7 s of CPU and 50–60 MiB of peak memory spent in
 * the first few bash calls, for a parse that is at most ~15 % faster afterwards (bench/README.md, figure 12).
 *
 * V8 decides a module's tiers when the module is compiled, so the flag is set only while ours compile and put
 * back right after; wasm compiled later by anyone else is tiered as usual (one another extension compiles in
 * those few milliseconds is not, which only makes it a little slower). A process whose owner chose wasm flags on
 * the command line is left alone.
 */
import { setFlagsFromString } from "node:v8";

const OWNER_CHOSE_WASM_FLAGS = /--(no-)?(liftoff|wasm-tier|wasm-dynamic-tiering)/;

export async function compiledWithBaselineOnly<T>(compile: () => Promise<T>): Promise<T> {
	const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) =>
		OWNER_CHOSE_WASM_FLAGS.test(arg),
	);
	if (chosen) return compile();
	setFlagsFromString("--liftoff-only");
	try {
		return await compile();
	} finally {
		setFlagsFromString("--no-liftoff-only");
	}
}
