/**
 * A real directory tree for the launcher checks: a home, an agent dir, a working dir, a copy of pi-permission-hub
 * (`gate/`, with the published entry, another module, and a source entry its pi.extensions does not list) and some
 * other extension. Tests write settings and agent files into it and ask the real checks through the real file
 * system.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildGateQuery } from "../../src/launchers/child-gate.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import type { DelegationCall, KnownLauncher } from "../../src/launchers/known-launcher.ts";
import { type GatePackage, gatePackageAt } from "../../src/launchers/package-manifest.ts";
import { REPO_ROOT } from "../harness/paths.ts";

/** The real pi-subagents package (its built-in agents are part of what the check reads). */
export const PI_SUBAGENTS_ROOT = path.join(REPO_ROOT, "node_modules", "pi-subagents");

export interface LauncherWorld {
	readonly root: string;
	readonly home: string;
	readonly agentDir: string;
	readonly work: string;
	/** The gate package directory. */
	readonly gateDir: string;
	readonly gate: GatePackage;
	/** An extension that is not the gate. */
	readonly otherExtension: string;
	write(relative: string, content: string): string;
	writeJson(relative: string, value: unknown): string;
	link(target: string, relative: string): string;
	query(
		launcher: KnownLauncher,
		call?: Partial<DelegationCall>,
		extra?: Partial<ChildGateQuery>,
	): ChildGateQuery;
	cleanup(): void;
}

const worlds: LauncherWorld[] = [];

export function cleanupWorlds(): void {
	for (const world of worlds.splice(0)) world.cleanup();
}

export function launcherWorld(): LauncherWorld {
	const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "pph-launchers-")));
	const write = (relative: string, content: string): string => {
		const file = path.join(root, relative);
		mkdirSync(path.dirname(file), { recursive: true });
		writeFileSync(file, content);
		return file;
	};
	const writeJson = (relative: string, value: unknown): string =>
		write(relative, `${JSON.stringify(value, null, "\t")}\n`);
	write(
		"gate/package.json",
		JSON.stringify({ name: "pi-permission-hub", pi: { extensions: ["./dist/index.js"] } }),
	);
	write("gate/dist/index.js", "export default function gate() {}\n");
	write("gate/dist/api.js", "export {};\n");
	write("gate/src/index.ts", "export default function gate(): void {}\n");
	write("other/package.json", JSON.stringify({ name: "some-extension", pi: { extensions: ["./main.ts"] } }));
	write("other/main.ts", "export default function other(): void {}\n");
	for (const dir of ["home", "agent", "work"]) mkdirSync(path.join(root, dir), { recursive: true });
	const gate = gatePackageAt(path.join(root, "gate"), nodeFileView);
	if (gate === null) throw new Error("the fixture gate package was not recognised");
	const world: LauncherWorld = {
		root,
		home: path.join(root, "home"),
		agentDir: path.join(root, "agent"),
		work: path.join(root, "work"),
		gateDir: path.join(root, "gate"),
		gate,
		otherExtension: path.join(root, "other"),
		write,
		writeJson,
		link(target, relative) {
			const at = path.join(root, relative);
			mkdirSync(path.dirname(at), { recursive: true });
			symlinkSync(target, at);
			return at;
		},
		query(launcher, call = {}, extra = {}) {
			return {
				launcher,
				call: {
					launches: true,
					foreground: true,
					agents: null,
					cwds: [path.join(root, "work")],
					withoutExtensions: false,
					tasks: [],
					tintinwebRuns: [],
					...call,
				},
				agentDir: path.join(root, "agent"),
				homeDir: path.join(root, "home"),
				projectTrusted: false,
				env: {},
				gate,
				// The fixture's gate is in the temp dir, which no real fix would point at; tests name it anyway.
				fixEntries: { packages: gate.root, childList: gate.root },
				files: nodeFileView,
				...extra,
			};
		},
		cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }),
	};
	worlds.push(world);
	return world;
}

export const PI_SUBAGENTS: KnownLauncher = {
	kind: "pi-subagents",
	packageRoot: PI_SUBAGENTS_ROOT,
	source: null,
};
export const PROCESS_SUBAGENT: KnownLauncher = { kind: "process-subagent", packageRoot: null, source: null };
export const TINTINWEB: KnownLauncher = {
	kind: "tintinweb-pi-subagents",
	packageRoot: path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents"),
	source: null,
};

/** A hostile project's stand-in: a package named pi-permission-hub whose one extension does nothing. */
export function plantImpostor(world: LauncherWorld, relative: string): string {
	world.writeJson(`${relative}/package.json`, {
		name: "pi-permission-hub",
		pi: { extensions: ["./index.js"] },
	});
	world.write(`${relative}/index.js`, "export default function nothing() {}\n");
	return path.join(world.root, relative);
}
