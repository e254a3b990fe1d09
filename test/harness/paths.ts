/**
 * Absolute locations the real-pi harness needs: the repo, pi's CLI, a Node able to run pi, the built extension.
 * Nothing here touches the file system at import time, so importing it never fails (dist/ may not be built yet).
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT: string = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

export const PI_CLI: string = path.join(
	REPO_ROOT,
	"node_modules",
	"@earendil-works",
	"pi-coding-agent",
	"dist",
	"bundle",
	"cli.js",
);

/** The bundled extension under test, as pi loads it from the package (`npm run build` produces it). */
export const EXTENSION_ENTRY: string = path.join(REPO_ROOT, "dist", "extension", "index.js");

/** The scripted model every harness run loads first. */
export const FAUX_MODEL_EXTENSION: string = path.join(
	REPO_ROOT,
	"test",
	"harness",
	"faux-model-extension.ts",
);

/** pi 1.x refuses to start on older Node releases. */
const MIN_NODE: readonly [number, number] = [22, 19];

const REPO_NODE = path.join(REPO_ROOT, "node_modules", ".bin", "node");

export function isSupportedNodeVersion(version: string): boolean {
	const match = /^v?(\d+)\.(\d+)\./.exec(version);
	if (!match) return false;
	const major = Number(match[1]);
	const minor = Number(match[2]);
	return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

let resolvedNode: string | undefined;

/**
 * A Node binary that can run pi: the current one when it is recent enough, else the repo's `node@22` devDependency.
 * Resolved lazily and cached; throws a message that says how to fix the setup.
 */
export function node22Binary(): string {
	if (resolvedNode !== undefined) return resolvedNode;
	if (isSupportedNodeVersion(process.version)) {
		resolvedNode = process.execPath;
		return resolvedNode;
	}
	const probe = spawnSync(REPO_NODE, ["--version"], { encoding: "utf8", timeout: 10_000 });
	const version = typeof probe.stdout === "string" ? probe.stdout.trim() : "";
	if (probe.status === 0 && isSupportedNodeVersion(version)) {
		resolvedNode = REPO_NODE;
		return resolvedNode;
	}
	throw new Error(
		`No Node >= ${MIN_NODE.join(".")} found to run pi: the current Node is ${process.version} and ` +
			`${REPO_NODE} ${probe.error ? `failed (${probe.error.message})` : `reported "${version}"`}. ` +
			"Run `npm install` (it provides node@22) or put Node 22 first on PATH.",
	);
}
