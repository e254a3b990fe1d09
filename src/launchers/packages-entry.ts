import os from "node:os";
import { join, sep } from "node:path";
import type { FileView } from "./file-view.ts";
import { GATE_PACKAGE_NAME, loadsGate } from "./package-manifest.ts";

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
