/**
 * Bundles the extension entry (src/index.ts) into dist/extension/ with esbuild: pi loads one small entry file
 * and, at session start, one chunk, instead of ~130 modules each resolved and transformed by pi's loader (the
 * difference is most of the gate's load cost; see adr/0012-bundled-extension.md). The lazily imported parts
 * (the gate, chokidar, the TUI dialog) stay separate chunks, so a run pays only for what it uses.
 *
 * Kept external: pi's own packages (pi provides them), the parser (it finds its .wasm files next to itself) and
 * the two CommonJS dependencies (an ESM bundle cannot `require`). Run after `tsc` (npm run build does both).
 */
import { build } from "esbuild";

const started = performance.now();
const result = await build({
	entryPoints: ["src/index.ts"],
	outdir: "dist/extension",
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node22",
	mainFields: ["module", "main"],
	external: [
		"@earendil-works/*",
		"typebox",
		"web-tree-sitter",
		"tree-sitter-bash",
		"write-file-atomic",
		"picomatch",
	],
	chunkNames: "chunks/[name]-[hash]",
	legalComments: "none",
	logLevel: "warning",
	metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
process.stdout.write(
	`bundled the extension into dist/extension (${Math.round(bytes / 1024)} KiB) in ${Math.round(performance.now() - started)} ms\n`,
);
