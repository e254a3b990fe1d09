/**
 * Bundles the extension into dist/extension/ with esbuild: pi loads one small entry file and, at session start,
 * the gate as one module Node imports natively, instead of ~130 modules each resolved and transformed by pi's
 * loader (most of the gate's load cost; see adr/0012-bundled-extension.md). The lazily imported parts
 * (chokidar, the TUI dialog) stay separate chunks, so a run pays only for what it uses.
 *
 * Kept external: pi's own packages (pi provides them), the parser (it finds its .wasm files next to itself) and
 * the two CommonJS dependencies (an ESM bundle cannot `require`). Run after `tsc` (npm run build does both).
 */
import { rmSync } from "node:fs";
import { build } from "esbuild";

const started = performance.now();
rmSync("dist/extension", { recursive: true, force: true });
const result = await build({
	// The gate is its own entry at the same relative place as in tsc's output: the composition root imports
	// it by URL with Node's loader (see src/index.ts).
	entryPoints: [
		{ in: "src/index.ts", out: "index" },
		{ in: "src/gate/session-gate.ts", out: "gate/session-gate" },
	],
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
