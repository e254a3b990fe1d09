/**
 * Starting and killing real pi processes for the harness.
 * Every pi runs in its own process group and kills take the whole process tree, so a watchdog also stops the
 * commands pi's tools started. Every live pi is tracked so a crashed or timed-out test cannot leave one running
 * after the test process ends.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import type { Readable } from "node:stream";
import { FAUX_MODEL_EXTENSION, node22Binary, PI_CLI } from "./paths.ts";
import type { Sandbox } from "./sandbox.ts";

export const FAUX_MODEL_ID = "faux/faux-1";

export interface PiLaunchOptions {
	readonly sandbox: Sandbox;
	/** Absolute extension paths, loaded with `-e` in this order after the faux model extension. */
	readonly extensions?: readonly string[];
	/** Extra pi CLI arguments, placed before the mode arguments. */
	readonly args?: readonly string[];
	/** Applied over `sandbox.env()`. */
	readonly env?: Readonly<Record<string, string>>;
	/** Defaults to `sandbox.workDir`. */
	readonly cwd?: string;
	/** Keep a session file under the agent dir instead of `--no-session`. */
	readonly persistSession?: boolean;
}

/** A pi child process; its stdout and stderr are always pipes. */
export type PiChild = ChildProcess & { readonly stdout: Readable; readonly stderr: Readable };

function hasOutputPipes(child: ChildProcess): child is PiChild {
	return child.stdout !== null && child.stderr !== null;
}

const live = new Set<PiChild>();
let exitHookInstalled = false;

/** Arguments for `node`: pi's CLI, the faux model first, the extensions under test, then `modeArgs` last. */
export function piArguments(options: PiLaunchOptions, modeArgs: readonly string[]): string[] {
	const extensions = [FAUX_MODEL_EXTENSION, ...(options.extensions ?? [])];
	return [
		PI_CLI,
		...extensions.flatMap((extension) => ["-e", extension]),
		"--model",
		FAUX_MODEL_ID,
		...(options.persistSession ? [] : ["--no-session"]),
		...(options.args ?? []),
		...modeArgs,
	];
}

export function spawnPi(
	options: PiLaunchOptions,
	modeArgs: readonly string[],
	stdin: "pipe" | "ignore",
): PiChild {
	const child = spawn(node22Binary(), piArguments(options, modeArgs), {
		cwd: options.cwd ?? options.sandbox.workDir,
		env: options.sandbox.env(options.env),
		stdio: [stdin, "pipe", "pipe"],
		detached: true,
	});
	if (!hasOutputPipes(child)) throw new Error("pi was spawned without stdout/stderr pipes");
	live.add(child);
	child.once("exit", () => live.delete(child));
	child.once("error", () => live.delete(child));
	installExitHook();
	return child;
}

/**
 * Signals pi's process group and every process descended from pi. The tree walk matters: pi's bash tool starts
 * each command in a process group of its own, so signalling pi's group alone would orphan running tool commands.
 * Quietly does nothing for processes that are already gone.
 */
export function killProcessTree(child: PiChild, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	const descendants = descendantPids(child.pid);
	signalQuietly(-child.pid, signal);
	signalQuietly(child.pid, signal);
	for (const pid of descendants) {
		signalQuietly(-pid, signal);
		signalQuietly(pid, signal);
	}
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(pid, signal);
	} catch {
		// Already gone, or not a group leader (negative pid): nothing to do.
	}
}

/** All processes below `root`, from one `ps` snapshot (taken before any kill, while the tree is intact). */
function descendantPids(root: number): number[] {
	const ps = spawnSync("ps", ["-A", "-o", "pid=", "-o", "ppid="], { encoding: "utf8", timeout: 5_000 });
	if (ps.status !== 0 || typeof ps.stdout !== "string") return [];
	const children = new Map<number, number[]>();
	for (const line of ps.stdout.split("\n")) {
		const [pid, ppid] = line.trim().split(/\s+/).map(Number);
		if (pid === undefined || ppid === undefined || Number.isNaN(pid) || Number.isNaN(ppid)) continue;
		children.set(ppid, [...(children.get(ppid) ?? []), pid]);
	}
	const found: number[] = [];
	const queue = [root];
	for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
		for (const pid of children.get(next) ?? []) {
			found.push(pid);
			queue.push(pid);
		}
	}
	return found;
}

export function livePiProcesses(): readonly PiChild[] {
	return [...live];
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once("exit", () => {
		for (const child of live) killProcessTree(child, "SIGKILL");
	});
}

export function tail(text: string, maxChars = 2_000): string {
	return text.length <= maxChars ? text : `…${text.slice(-maxChars)}`;
}

/** Splits a byte stream into LF-terminated records; `\r` before the LF is dropped. U+2028/U+2029 stay inside. */
export function createLineSplitter(onLine: (line: string) => void): (chunk: string) => void {
	let buffer = "";
	return (chunk) => {
		buffer += chunk;
		let newline = buffer.indexOf("\n");
		while (newline >= 0) {
			const raw = buffer.slice(0, newline);
			buffer = buffer.slice(newline + 1);
			onLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
			newline = buffer.indexOf("\n");
		}
	};
}
