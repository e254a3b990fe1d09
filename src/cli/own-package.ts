/**
 * The package this command runs from: where it is, its version, and the `packages` entry that would make pi
 * load this copy of the gate. src/cli and dist/cli both sit two levels below the package directory.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import type { FileView } from "../launchers/file-view.ts";
import { GATE_PACKAGE_NAME, loadsGate } from "../launchers/package-manifest.ts";

/** The directory of the package: the copy of the gate the doctor can point settings at when the agent dir has none. */
export function ownPackageRoot(): string {
	return fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
}

const packageSchema = z.object({ name: z.string(), version: z.string() });

/** The installed package's name and version, from its package.json. */
export function packageVersion(): { readonly name: string; readonly version: string } {
	const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
	return packageSchema.parse(JSON.parse(text));
}

/**
 * The `packages` entry that makes pi load the copy at `root`, or null when none is right: not a built copy of the
 * gate, or a temporary copy (an `npx` cache, the temp dir) that may vanish and take the gate with it. A copy that
 * `pi install npm:…` put in the agent dir is named the way pi names it; any other copy by its absolute path,
 * which pi loads in place and which does not depend on where the agent dir is.
 */
export function packagesEntryFor(root: string, agentDir: string, view: FileView): string | null {
	const real = view.realPath(root);
	if (real === null || !loadsGate(root, view) || isTransient(real, view)) return null;
	if (view.realPath(join(agentDir, "npm", "node_modules", GATE_PACKAGE_NAME)) === real) {
		return `npm:${GATE_PACKAGE_NAME}`;
	}
	return root;
}

function isTransient(path: string, view: FileView): boolean {
	const tmp = view.realPath(os.tmpdir()) ?? os.tmpdir();
	return path.includes(`${sep}_npx${sep}`) || path === tmp || path.startsWith(`${tmp}${sep}`);
}
