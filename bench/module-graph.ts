/**
 * Reads a module trace (module-trace.ts) and says what the gate brought into the run: its own modules, and each
 * package a gate module imported, with whether that package was already loaded by someone else first (pi, the
 * scripted model) and how many of the package's modules were loaded in all.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface GateModules {
	readonly gateModules: number;
	readonly packages: readonly {
		readonly name: string;
		readonly modules: number;
		/** True when the first load of the package came from a gate module. */
		readonly loadedByGate: boolean;
	}[];
}

function packageOf(url: string): string | null {
	const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
	return match?.[1] ?? null;
}

export function gateModules(traceFile: string, distDir: string): GateModules {
	const distUrl = new URL(`file://${distDir.endsWith("/") ? distDir : `${distDir}/`}`).href;
	const seen = new Set<string>();
	const firstLoader = new Map<string, string | null>();
	const moduleCount = new Map<string, Set<string>>();
	const gateOwn = new Set<string>();
	const gatePackages = new Set<string>();
	for (const line of readFileSync(traceFile, "utf8").split("\n")) {
		if (line.trim() === "") continue;
		const entry: unknown = JSON.parse(line);
		if (typeof entry !== "object" || entry === null) continue;
		const url: unknown = Reflect.get(entry, "url");
		const parent: unknown = Reflect.get(entry, "parent");
		if (typeof url !== "string" || !url.startsWith("file:")) continue;
		const fromGate = typeof parent === "string" && parent.startsWith(distUrl);
		if (url.startsWith(distUrl)) gateOwn.add(url);
		const pkg = packageOf(fileURLToPath(url));
		if (pkg === null) continue;
		if (fromGate) gatePackages.add(pkg);
		if (!seen.has(url)) {
			seen.add(url);
			const modules = moduleCount.get(pkg) ?? new Set<string>();
			modules.add(url);
			moduleCount.set(pkg, modules);
		}
		if (!firstLoader.has(pkg)) firstLoader.set(pkg, typeof parent === "string" ? parent : null);
	}
	return {
		gateModules: gateOwn.size,
		packages: [...gatePackages].sort().map((name) => ({
			name,
			modules: moduleCount.get(name)?.size ?? 0,
			loadedByGate: firstLoader.get(name)?.startsWith(distUrl) === true,
		})),
	};
}
