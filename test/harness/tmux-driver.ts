/**
 * Drives a program in a real terminal: a private tmux server (its own socket and config, so the user's tmux is
 * never touched) with one fixed-size pane. Keys go in with send-keys; the screen comes back with capture-pane.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { QUIET_MS, SHOWN_MS } from "../../src/authority/key-rule.ts";

/** The tmux binary on PATH, or null when it is not installed. */
export function findTmux(): string | null {
	const probe = spawnSync("tmux", ["-V"], { encoding: "utf8", timeout: 5_000 });
	return probe.status === 0 ? probe.stdout.trim() : null;
}

export class TmuxPane {
	private readonly socket: string;
	private readonly target = "demo";

	private constructor(socket: string) {
		this.socket = socket;
	}

	/**
	 * Starts `command` (a shell command line) in a `cols`×`rows` pane. The pane stays after the program exits
	 * (remain-on-exit), so its last screen can still be read.
	 */
	static start(options: {
		readonly dir: string;
		readonly command: string;
		readonly cols: number;
		readonly rows: number;
		readonly env: Readonly<Record<string, string>>;
	}): TmuxPane {
		const config = path.join(options.dir, "tmux.conf");
		writeFileSync(
			config,
			["set -g remain-on-exit on", "set -g history-limit 20000", "set -g extended-keys on", ""].join("\n"),
		);
		const pane = new TmuxPane(path.join(options.dir, "tmux.sock"));
		pane.run(
			[
				"-f",
				config,
				"new-session",
				"-d",
				"-s",
				pane.target,
				"-x",
				String(options.cols),
				"-y",
				String(options.rows),
				options.command,
			],
			options.env,
		);
		return pane;
	}

	/** The visible screen, one string per row, without colours. */
	screen(): string {
		return this.run(["capture-pane", "-p", "-t", this.target]);
	}

	/** The scrollback and the screen. */
	history(): string {
		return this.run(["capture-pane", "-p", "-S", "-", "-E", "-", "-t", this.target]);
	}

	/** Sends tmux key names (`y`, `Enter`, `Escape`, …). */
	sendKeys(...keys: readonly string[]): void {
		this.run(["send-keys", "-t", this.target, ...keys]);
	}

	/** Stops this private tmux server and everything running in it. */
	kill(): void {
		spawnSync("tmux", ["-S", this.socket, "kill-server"], { timeout: 5_000 });
	}

	private run(args: readonly string[], env?: Readonly<Record<string, string>>): string {
		const result = spawnSync("tmux", ["-S", this.socket, ...args], {
			encoding: "utf8",
			timeout: 10_000,
			...(env ? { env } : {}),
		});
		if (result.status !== 0) {
			throw new Error(`tmux ${args.join(" ")} failed (${result.status}): ${result.stderr || result.error}`);
		}
		return result.stdout;
	}
}

/**
 * Polls the screen every `intervalMs` until `found` returns a value, or fails with the last screen after
 * `timeoutMs`.
 */
export async function waitForScreen<T>(
	pane: TmuxPane,
	what: string,
	found: (screen: string) => T | null,
	timeoutMs = 45_000,
	intervalMs = 150,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let screen = "";
	while (Date.now() < deadline) {
		screen = pane.screen();
		const value = found(screen);
		if (value !== null) return value;
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen was:\n${screen}`);
}

/**
 * How long a person pauses before answering a dialog: past the key rule's quiet time after the last key and its
 * time on screen (adr/0030), with room for a loaded machine's slow redraw.
 */
export const ANSWER_PAUSE_MS = Math.max(QUIET_MS, SHOWN_MS) + 400;

/** Keys sent as a person answers a dialog: after a pause in typing, so the dialog takes them. */
export async function answerAfterPause(pane: TmuxPane, ...keys: readonly string[]): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, ANSWER_PAUSE_MS));
	pane.sendKeys(...keys);
}
