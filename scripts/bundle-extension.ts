/**
 * Bundles the extension into dist/extension/ with esbuild, as two builds (adr/0012):
 * - `index.js`, the entry pi loads: the composition root alone, in a `type: commonjs` scope. pi's loader then
 *   transforms it and hands its imports of pi's packages the copy of pi that runs; an ES-module entry is imported
 *   natively instead, and its imports load a second, unbundled pi (~1 s of CPU and ~65 MiB per process).
 * - `gate/session-gate.js` and its chunks, in a `type: module` scope: the gate, which the entry loads with Node's
 *   own loader at session start. The lazily imported parts (chokidar, the TUI dialog, the change preview) stay
 *   separate chunks, so a run pays only for what it uses.
 *
 * Kept external: pi's own packages (pi provides them), the parser (it finds its .wasm files next to itself), and
 * `yaml`, which only a @tintinweb/pi-subagents call loads (with `require`, on first use).
 * Run after `tsc` (npm run build does both).
 */
import { rmSync, writeFileSync } from "node:fs";
import { type BuildOptions, build, type Plugin } from "esbuild";
import { GATE_PACKAGE_NAME } from "../src/launchers/package-manifest.ts";

const started = performance.now();
rmSync("dist/extension", { recursive: true, force: true });
/**
 * zod's namespace re-exports all of its ~50 message locales (`z.locales`), and a namespace import keeps them all in
 * the bundle: a third of zod's size, parsed at every session start. The gate only ever uses English, the one zod
 * configures itself with, so the locales index is built with English alone.
 */
const englishOnlyZodLocales: Plugin = {
	name: "english-only-zod-locales",
	setup(build) {
		build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
			contents: 'export { default as en } from "./en.js";\n',
			loader: "js",
		}));
	},
};

const shared: BuildOptions & { metafile: true } = {
	bundle: true,
	format: "esm",
	platform: "node",
	target: "node22",
	mainFields: ["module", "main"],
	external: ["@earendil-works/*", "web-tree-sitter", "tree-sitter-bash", "yaml"],
	legalComments: "none",
	// Whitespace and syntax only: a third less for V8 to parse at every session start, while names stay readable
	// in stack traces (adr/0028).
	minifyWhitespace: true,
	minifySyntax: true,
	logLevel: "warning",
	metafile: true,
	plugins: [englishOnlyZodLocales],
};
const gate = await build({
	...shared,
	entryPoints: [{ in: "src/gate/session-gate.ts", out: "session-gate" }],
	outdir: "dist/extension/gate",
	splitting: true,
	chunkNames: "chunks/[name]-[hash]",
	// The CommonJS dependencies (write-file-atomic, picomatch) are bundled too: Node would otherwise run its
	// CommonJS export scanner on them at every session start. They `require` Node's modules, and write-file-atomic
	// seeds its temporary names with `__filename`; an ES module has neither, so each file is given both.
	banner: {
		js: [
			'import { createRequire as createGateRequire } from "node:module";',
			'import { fileURLToPath as gateFileURLToPath } from "node:url";',
			"const require = createGateRequire(import.meta.url);",
			"const __filename = gateFileURLToPath(import.meta.url);",
		].join(" "),
	},
});
writeFileSync("dist/extension/gate/package.json", `${JSON.stringify({ type: "module" })}\n`);
const entry = await build({
	...shared,
	entryPoints: [{ in: "src/index.ts", out: "index" }],
	outdir: "dist/extension",
});
// Also named after the package and declaring the entry: @tintinweb/pi-subagents names an extension after the first
// package.json above it that lists it, so an agent file's `extensions: pi-permission-hub` keeps the gate, as
// `extension` (the directory's name) still does (adr/0026). It has no `exports`, so Node resolves nothing through it.
const manifest = { name: GATE_PACKAGE_NAME, type: "commonjs", pi: { extensions: ["./index.js"] } };
writeFileSync("dist/extension/package.json", `${JSON.stringify(manifest)}\n`);
const bytes = [gate, entry]
	.flatMap((result) => Object.values(result.metafile.outputs))
	.reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(
	`bundled the extension into dist/extension (${Math.round(bytes / 1024)} KiB) in ${Math.round(performance.now() - started)} ms\n`,
);
