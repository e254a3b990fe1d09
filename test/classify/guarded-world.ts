/**
 * A real home, agent dir (with the gate's inbox) and project (with `.git/hooks` and `src`) in a temporary
 * directory, for the tests of what the gate guards: the guard resolves real links, so the world must be real.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ClassifiedAction, ToolCall } from "../../src/classify/action.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { bashParser, depsFor } from "./classify-fixture.ts";

export interface GuardedWorld {
	readonly root: string;
	readonly home: string;
	readonly agentDir: string;
	readonly project: string;
	/** Classify a call made in `cwd` (the project by default) with this world's home and agent dir. */
	classify(call: Omit<ToolCall, "cwd">, cwd?: string): ClassifiedAction;
	remove(): void;
}

export async function createGuardedWorld(prefix: string): Promise<GuardedWorld> {
	const bash = await bashParser();
	const root = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
	const home = path.join(root, "home");
	const agentDir = path.join(home, ".pi", "agent");
	const project = path.join(root, "project");
	for (const dir of [
		path.join(agentDir, "pi-permission-hub", "inbox"),
		path.join(project, ".git", "hooks"),
		path.join(project, "src"),
		path.join(root, "plain"),
	]) {
		mkdirSync(dir, { recursive: true });
	}
	writeFileSync(path.join(home, ".bashrc"), "");
	return {
		root,
		home,
		agentDir,
		project,
		classify: (call, cwd = project) =>
			classifyAction({ ...call, cwd }, depsFor(bash, { homeDir: home, agentDir })),
		remove: () => rmSync(root, { recursive: true, force: true }),
	};
}

/** The strictest guard on any part of the action: `refuse`, `human`, or null when nothing guarded is touched. */
export function guardOf(action: ClassifiedAction): string | null {
	const kinds = action.parts.flatMap((part) => (part.guard === undefined ? [] : [part.guard.kind]));
	return kinds.includes("refuse") ? "refuse" : kinds.includes("human") ? "human" : null;
}
