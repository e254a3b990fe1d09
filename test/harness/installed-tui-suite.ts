/**
 * What every terminal-UI test of the installed package sets up alike: the package packed once per file (tmux
 * required), each test's tmux pane killed after it, and the file's sandboxes and scratch folder removed at the
 * end. A file calls `installedTuiSuite` once at its top; the vitest hooks it registers belong to that file.
 */
import { rm } from "node:fs/promises";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type PackedPackage, packForTerminalTest } from "./packed-package.ts";
import { node22Binary, PI_CLI } from "./paths.ts";
import { createSandbox, type Sandbox } from "./sandbox.ts";
import { TmuxPane, waitForScreen } from "./tmux-driver.ts";

export interface InstalledTuiSuite {
	/** The packed package (once the file's `beforeAll` has run). */
	packed(): PackedPackage;
	/** A new sandbox, removed when the file's tests are done. */
	sandbox(): Promise<Sandbox>;
	/** The running test's pane: killed after the test. */
	pane: TmuxPane | undefined;
	/** pi's TUI with the faux model in a new pane, in the sandbox's work dir, once its editor is on screen. */
	startPi(sb: Sandbox, options?: PiPane): Promise<TmuxPane>;
}

export interface PiPane {
	readonly cols?: number;
	readonly rows?: number;
	readonly env?: Readonly<Record<string, string>>;
	/** pi's arguments after the model (`--no-session`, say). */
	readonly args?: readonly string[];
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
		async startPi(sb, { cols = 120, rows = 40, env = {}, args = [] } = {}) {
			const pi = [node22Binary(), PI_CLI, "--model", "faux/faux-1", ...args].map(shellQuoted).join(" ");
			const terminal = TmuxPane.start({
				dir: sb.root,
				command: `cd ${shellQuoted(sb.workDir)} && ${pi}; echo "pi exit status: $?"`,
				cols,
				rows,
				env: sb.env(env),
			});
			suite.pane = terminal;
			await waitForScreen(
				terminal,
				"pi's editor and footer",
				(screen) => (screen.includes("faux-1") ? true : null),
				60_000,
			);
			return terminal;
		},
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
