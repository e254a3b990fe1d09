/**
 * What the shipped JavaScript imports, checked against what an installed copy has: its `dependencies` and Node's
 * built-ins. pi's own packages are not installed with an extension (pi and npm install it with
 * `--legacy-peer-deps`), so they may only be imported statically by an extension entry, where pi's loader
 * resolves them to its own copy (adr/0012). A dynamic `import()` of one, or any import from the natively loaded
 * gate, finds nothing in an installed copy — the checkout hides that, because they are dev dependencies here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { REPO_ROOT } from "../harness/paths.ts";

const manifest = z
	.looseObject({ dependencies: z.record(z.string(), z.string()) })
	.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")));
const DEPENDENCIES = new Set(Object.keys(manifest.dependencies));
const BUILTINS = new Set(builtinModules);
const PI_PACKAGE = /^(@earendil-works\/|@mariozechner\/|typebox($|\/)|@sinclair\/typebox)/;
/** The files pi loads through its own loader: the bundle's entry, and tsc's entry (also a valid extension). */
const EXTENSION_ENTRIES = new Set(["dist/extension/index.js", "dist/index.js"]);

interface ModuleImport {
	readonly file: string;
	readonly specifier: string;
	readonly kind: "static" | "dynamic" | "require";
}

function jsFiles(dir: string): string[] {
	return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isFile() && entry.name.endsWith(".js"))
		.map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)));
}

/**
 * Module specifiers in generated code: tsc's output (one statement per line) and esbuild's minified bundle
 * (`import{a,b}from"x";import"./y.js"`, several statements on a line).
 */
function importsOf(file: string): ModuleImport[] {
	const text = readFileSync(path.join(REPO_ROOT, file), "utf8");
	const found: ModuleImport[] = [];
	const statements = [
		/(?:^|[;}\s])import\s*(?:[\w$*\s,]*(?:\{[^}]*\})?[\w$*\s,]*from\s*)?["']([^"']+)["']/gm,
		/(?:^|[;}\s])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["']([^"']+)["']/gm,
	];
	for (const statement of statements) {
		for (const match of text.matchAll(statement))
			found.push({ file, specifier: match[1] ?? "", kind: "static" });
	}
	for (const match of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) {
		found.push({ file, specifier: match[1] ?? "", kind: "dynamic" });
	}
	for (const match of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) {
		found.push({ file, specifier: match[1] ?? "", kind: "require" });
	}
	return found;
}

function packageOf(specifier: string): string {
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

const shipped = jsFiles("dist").flatMap(importsOf);
const bare = shipped.filter((i) => !i.specifier.startsWith(".") && !i.specifier.startsWith("node:"));

describe("the shipped JavaScript imports only what an installed copy has", () => {
	it("finds the imports (the scan itself works)", () => {
		expect(shipped.length).toBeGreaterThan(50);
		expect(bare.map((i) => packageOf(i.specifier))).toEqual(
			expect.arrayContaining(["zod", "web-tree-sitter"]),
		);
	});

	it("imports pi's packages only statically, and only from an extension entry", () => {
		const misplaced = bare.filter(
			(i) => PI_PACKAGE.test(i.specifier) && !(i.kind === "static" && EXTENSION_ENTRIES.has(i.file)),
		);
		expect(misplaced).toEqual([]);
		expect(bare).toContainEqual({
			file: "dist/extension/index.js",
			specifier: "@earendil-works/pi-tui",
			kind: "static",
		});
	});

	it("imports nothing else that is not a runtime dependency or a Node built-in", () => {
		const missing = bare.filter(
			(i) =>
				!PI_PACKAGE.test(i.specifier) &&
				!DEPENDENCIES.has(packageOf(i.specifier)) &&
				!BUILTINS.has(i.specifier),
		);
		expect(missing).toEqual([]);
	});

	it("carries zod's English messages only: the other locales are left out of the bundle (adr/0028)", () => {
		const bundled = jsFiles("dist/extension").map((file) => readFileSync(path.join(REPO_ROOT, file), "utf8"));
		expect(bundled.some((text) => text.includes("Invalid input: expected"))).toBe(true);
		expect(bundled.filter((text) => text.includes("Ungültige Eingabe"))).toEqual([]);
	});

	it("carries only the parts of zod/mini the gate uses, not classic zod or all of zod (adr/0029)", () => {
		const zodFiles = jsFiles("dist/extension").filter((file) =>
			readFileSync(path.join(REPO_ROOT, file), "utf8").includes("$ZodType"),
		);
		const zodBytes = zodFiles.map((file) => readFileSync(path.join(REPO_ROOT, file)).length);
		expect(zodFiles).toHaveLength(1);
		// Classic zod bundled at 288 KB, zod/mini kept whole (a namespace object re-exported) at ~256 KB; the parts used: ~68 KB.
		expect(zodBytes[0]).toBeLessThan(120_000);
	});
});
