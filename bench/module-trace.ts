/**
 * Preloaded into a pi process by figure 4 (`--import`), to list the modules the gate brings into the run: every
 * module resolution (specifier's URL and the importing module's URL) is appended as a JSON line to the file
 * named by PPH_MODULE_TRACE. The hooks run on Node's loader thread (see module-trace-hooks.ts).
 */
import { register } from "node:module";

const file = process.env.PPH_MODULE_TRACE;
if (file) register(new URL("./module-trace-hooks.ts", import.meta.url), { data: { file } });
