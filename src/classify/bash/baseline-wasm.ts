/**
 * The parser's WebAssembly is compiled by V8's baseline compiler (Liftoff) only, never tiered up by its
 * optimizing compiler (adr/0028). By default V8 optimizes the grammar's and the runtime's functions in the
 * background as they run: in a short pi run that is about 0.7 s of CPU and 50–60 MiB of peak memory spent in
 * the first few bash calls, for a parse that is at most ~15 % faster afterwards (bench/README.md, figure 12).
 *
 * `--liftoff-only` is set while ours compile and `--no-liftoff-only` right after, but that does not put V8 back
 * as it was: the flag also turned off tier-up and dynamic tiering, which stay off. That lasting part is what keeps
 * our functions at Liftoff (they are compiled lazily, at their first call, after the flag is cleared), and it
 * holds for every module in the process: no wasm compiled after the first bash call's parser, another
 * extension's included, is ever optimized (test/classify/baseline-wasm.test.ts). A process whose owner chose wasm
 * flags on the command line is left alone.
 */
import { setFlagsFromString } from "node:v8";

const OWNER_CHOSE_WASM_FLAGS = /--(no-?)?(liftoff|wasm[-_]tier|wasm[-_]dynamic[-_]tiering)/;

export async function compiledWithBaselineOnly<T>(compile: () => Promise<T>): Promise<T> {
	// Only on the command line: Node refuses V8's wasm flags in NODE_OPTIONS.
	if (process.execArgv.some((arg) => OWNER_CHOSE_WASM_FLAGS.test(arg))) return compile();
	setFlagsFromString("--liftoff-only");
	try {
		return await compile();
	} finally {
		setFlagsFromString("--no-liftoff-only");
	}
}
