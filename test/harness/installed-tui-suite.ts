/**
 * What every terminal-UI test of the installed package sets up alike: the package packed once per file (tmux
 * required), each test's tmux pane killed after it, and the file's sandboxes and scratch folder removed at the
 * end. A file calls `installedTuiSuite` once at its top; the vitest hooks it registers belong to that file.
 */
import { rm } from "node:fs/promises";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type PackedPackage, packForTerminalTest } from "./packed-package.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import type { TmuxPane } from "./tmux-driver.ts";

export interface InstalledTuiSuite {
	/** The packed package (once the file's `beforeAll` has run). */
	packed(): PackedPackage;
	/** A new sandbox, removed when the file's tests are done. */
	sandbox(): Promise<Sandbox>;
	/** The running test's pane: killed after the test. */
	pane: TmuxPane | undefined;
}

/** `afterEachTest`: more to undo after each test, once its pane is gone. */
export function installedTuiSuite(
	scratchPrefix: string,
	afterEachTest: () => void = () => {},
): InstalledTuiSuite {
	let scratch = "";
	let packed: PackedPackage | undefined;
	const sandboxes: Sandbox[] = [];
	const suite: InstalledTuiSuite = {
		packed() {
			if (packed === undefined) throw new Error("the package is packed in beforeAll: use it inside a test");
			return packed;
		},
		async sandbox() {
			const sb = await createSandbox();
			sandboxes.push(sb);
			return sb;
		},
		pane: undefined,
	};
	beforeAll(async () => {
		({ scratch, packed } = await packForTerminalTest(scratchPrefix));
	}, 240_000);
	afterEach(() => {
		suite.pane?.kill();
		suite.pane = undefined;
		afterEachTest();
	});
	afterAll(async () => {
		await Promise.all(sandboxes.splice(0).map((sb) => sb.cleanup()));
		if (scratch) await rm(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
	});
	return suite;
}

/** `arg` as one word of a shell command line. */
export function shellQuoted(arg: string): string {
	return `'${arg.replaceAll("'", "'\\''")}'`;
}
