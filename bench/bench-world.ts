/**
 * A throw-away world for the in-process figures: a home, an agent dir holding the benchmark config, and a project
 * with the usual directories, so path resolution in the classifier touches a real file system.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBenchConfig } from "./bench-policy.ts";

export interface BenchWorld {
	readonly root: string;
	readonly home: string;
	readonly agentDir: string;
	readonly project: string;
	readonly configFile: string;
	cleanup(): void;
}

const PROJECT_DIRS = ["src", "src/lib", "test", "docs", "dist", "scripts", "services/svc-001/src"];

export function createBenchWorld(): BenchWorld {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "pph-bench-")));
	const home = join(root, "home");
	const agentDir = join(root, "agent");
	const project = join(root, "project");
	for (const dir of PROJECT_DIRS) mkdirSync(join(project, dir), { recursive: true });
	mkdirSync(home, { recursive: true });
	writeFileSync(join(project, "package.json"), '{ "name": "bench-project", "version": "1.0.0" }\n');
	writeFileSync(join(project, "src", "index.ts"), "export const x = 1;\n");
	const configFile = writeBenchConfig(agentDir);
	return {
		root,
		home,
		agentDir,
		project,
		configFile,
		cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
	};
}
