/**
 * `doctor`: the built CLI against real agent dirs and projects (settings files, agent files, installed package
 * directories as pi lays them out), `--fix` writing exactly the shown change, and a real pi whose pi-subagents
 * child asks the root after the fix.
 */
import {
	chmodSync,
	cpSync,
	existsSync,
	mkdirSync,
	readFileSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { sandboxFinding } from "../../src/cli/doctor/sandbox-finding.ts";
import { probeAt } from "../../src/sandbox/bubblewrap.ts";
import { type DialogPolicy, denyAll } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import type { Sandbox } from "../harness/sandbox.ts";
import {
	assertCliBuilt,
	auditEntries,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	runCli,
	runCliJson,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(async () => {
	await killAllRpc();
	await cleanupCliSandboxes();
});

const SUBAGENTS = path.join(REPO_ROOT, "node_modules", "pi-subagents");
const TINTINWEB = path.join(REPO_ROOT, "node_modules", "@tintinweb", "pi-subagents");

const changeSchema = z.object({
	file: z.string(),
	key: z.enum(["packages", "subagents.defaultExtensions"]),
	before: z.array(z.unknown()).nullable(),
	after: z.array(z.unknown()),
});
const findingSchema = z.object({
	id: z.string(),
	severity: z.enum(["problem", "warning", "info"]),
	file: z.string().nullable(),
	explanation: z.string().min(1),
	fix: z.string().min(1),
	change: changeSchema.nullable(),
});
const countsSchema = z.object({ problem: z.number(), warning: z.number(), info: z.number() });
const reportSchema = z.object({
	agent_dir: z.string(),
	project_dir: z.string(),
	gate: z.object({
		installed: z.boolean(),
		loaded_by: z.array(z.object({ origin: z.string(), entry: z.string(), location: z.string().nullable() })),
		entry_for_children: z.string().nullable(),
	}),
	subagents: z.object({ installed: z.boolean(), locations: z.array(z.string().nullable()) }),
	counts: countsSchema,
	findings: z.array(findingSchema),
	fix: z.object({
		mode: z.enum(["off", "dry-run", "apply"]),
		applied: z.boolean(),
		changes: z.array(changeSchema),
	}),
	remaining: z.object({ counts: countsSchema, findings: z.array(findingSchema) }).nullable(),
});
type Report = z.infer<typeof reportSchema>;

async function doctor(
	sb: Sandbox,
	args: readonly string[] = [],
): Promise<{ code: number | null; report: Report; ok: boolean; errorKind: string | undefined }> {
	const { code, json } = await runCliJson(sb, ["doctor", ...args]);
	return { code, report: reportSchema.parse(json), ok: json.ok, errorKind: json.error?.kind };
}

/** The launcher findings' ids; the sandbox finding has its own tests below. */
function ids(findings: readonly { id: string }[]): string[] {
	return findings.map((f) => f.id).filter((id) => !id.startsWith("sandbox-"));
}

function settingsFile(sb: Sandbox): string {
	return path.join(sb.agentDir, "settings.json");
}

function readJson(file: string): unknown {
	return JSON.parse(readFileSync(file, "utf8"));
}

/** A package directory where `pi install npm:<name>` puts it: `<agent dir>/npm/node_modules/<name>`. */
function npmInstall(sb: Sandbox, name: string, target: string): string {
	const dir = path.join(sb.agentDir, "npm", "node_modules");
	mkdirSync(dir, { recursive: true });
	symlinkSync(target, path.join(dir, name));
	return path.join(dir, name);
}

describe("doctor: the gate in the agent dir and pi-subagents' default extensions", () => {
	it("finds an -e-only gate and a missing defaultExtensions; --fix writes exactly the shown change; then clean", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({ packages: [SUBAGENTS], extensions: [FAUX_MODEL_EXTENSION], theme: "dark" });
		const original = readFileSync(settingsFile(sb), "utf8");

		const first = await doctor(sb);
		expect(first.code).toBe(1);
		expect(first.ok).toBe(false);
		expect(first.errorKind).toBe("invalid");
		expect(first.report.gate).toEqual({ installed: false, loaded_by: [], entry_for_children: REPO_ROOT });
		expect(first.report.subagents).toEqual({ installed: true, locations: [SUBAGENTS] });
		expect(ids(first.report.findings)).toEqual([
			"gate-not-installed",
			"subagents-default-extensions-missing",
			"subagents-children-lose-extensions",
		]);
		const [notInstalled, missing, lose] = first.report.findings;
		expect(notInstalled?.explanation).toContain("started with -e");
		expect(notInstalled?.fix).toContain("pi install npm:pi-permission-hub");
		expect(notInstalled?.change).toEqual({
			file: settingsFile(sb),
			key: "packages",
			before: [SUBAGENTS],
			after: [SUBAGENTS, REPO_ROOT],
		});
		expect(missing?.change).toEqual({
			file: settingsFile(sb),
			key: "subagents.defaultExtensions",
			before: null,
			after: [REPO_ROOT],
		});
		expect(missing?.fix).toContain("must be listed too");
		expect(lose).toMatchObject({ severity: "warning", change: null });
		expect(lose?.explanation).toContain(JSON.stringify(FAUX_MODEL_EXTENSION));
		// Without --fix the changes it would make are listed, and nothing is written.
		expect(first.report.fix).toEqual({
			mode: "off",
			applied: false,
			changes: [notInstalled?.change, missing?.change],
		});
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(original);

		const dry = await doctor(sb, ["--fix", "--dry-run"]);
		expect(dry.code).toBe(1);
		expect(dry.report.fix.mode).toBe("dry-run");
		expect(dry.report.fix.applied).toBe(false);
		expect(dry.report.fix.changes).toEqual([notInstalled?.change, missing?.change]);
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(original);

		const text = await runCli(sb, ["doctor", "--fix"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(
			`  ${settingsFile(sb)}  "packages"\n    before: ${JSON.stringify([SUBAGENTS])}\n    after:  ${JSON.stringify([SUBAGENTS, REPO_ROOT])}`,
		);
		expect(text.stdout).toContain(
			`"subagents.defaultExtensions"\n    before: (absent)\n    after:  ${JSON.stringify([REPO_ROOT])}`,
		);
		expect(text.stdout).toContain("Applied 2 changes.");
		// The launcher findings and the sandbox finding (off, bubblewrap usable).
		expect(text.stdout).toContain("After the changes: 0 problems, 1 warning, 2 info.");
		// Every other key kept, in its place, in the file's own layout (tabs here).
		const fixed = {
			packages: [SUBAGENTS, REPO_ROOT],
			extensions: [FAUX_MODEL_EXTENSION],
			theme: "dark",
			subagents: { defaultExtensions: [REPO_ROOT] },
		};
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(`${JSON.stringify(fixed, null, "\t")}\n`);

		const second = await doctor(sb, ["--fix"]);
		expect(second.code).toBe(0);
		expect(second.ok).toBe(true);
		expect(second.report.gate.loaded_by).toEqual([
			{ origin: "packages", entry: REPO_ROOT, location: REPO_ROOT },
		]);
		expect(second.report.counts).toEqual({ problem: 0, warning: 1, info: 2 });
		expect(ids(second.report.findings)).toEqual(["subagents-children-lose-extensions", "gate-installed"]);
		expect(second.report.fix).toEqual({ mode: "apply", applied: false, changes: [] });
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(`${JSON.stringify(fixed, null, "\t")}\n`);
	});

	it("an npm-installed gate and pi-subagents: the fix names pi's install directory; failing-open entries are warned", async () => {
		const sb = await cliSandbox();
		const gateDir = npmInstall(sb, "pi-permission-hub", REPO_ROOT);
		npmInstall(sb, "pi-subagents", SUBAGENTS);
		const missingPath = path.join(sb.root, "gone", "pi-permission-hub");
		const settings = {
			packages: ["npm:pi-subagents", "npm:pi-permission-hub@^0.1.0"],
			subagents: {
				defaultModel: "faux/faux-1",
				defaultExtensions: [missingPath, "relative/pi-permission-hub", "npm:pi-permission-hub"],
				agentScanDirs: [],
			},
		};
		await sb.writeSettings(settings);

		const first = await doctor(sb);
		expect(first.code).toBe(1);
		expect(first.report.gate.installed).toBe(true);
		expect(first.report.gate.entry_for_children).toBe(gateDir);
		expect(first.report.subagents.locations).toEqual([
			path.join(sb.agentDir, "npm", "node_modules", "pi-subagents"),
		]);
		expect(ids(first.report.findings)).toEqual([
			"subagents-default-extensions-without-gate",
			"extension-path-missing",
			"extension-path-relative",
			"extension-package-spec",
			"gate-installed",
		]);
		const withoutGate = first.report.findings[0];
		expect(withoutGate?.change).toEqual({
			file: settingsFile(sb),
			key: "subagents.defaultExtensions",
			before: settings.subagents.defaultExtensions,
			after: [...settings.subagents.defaultExtensions, gateDir],
		});
		expect(first.report.findings[1]?.explanation).toContain("skips a missing extension path without a word");
		expect(first.report.findings[2]?.explanation).toContain("the directory each child runs in");
		expect(first.report.findings[3]?.explanation).toContain("temporary directory");

		const fixed = await doctor(sb, ["--fix"]);
		expect(fixed.code).toBe(0);
		expect(fixed.report.remaining?.counts).toEqual({ problem: 0, warning: 3, info: 2 });
		expect(readJson(settingsFile(sb))).toEqual({
			...settings,
			subagents: {
				...settings.subagents,
				defaultExtensions: [...settings.subagents.defaultExtensions, gateDir],
			},
		});
		// Key order inside "subagents" is kept: the list stays where it was.
		expect(Object.keys((readJson(settingsFile(sb)) as { subagents: object }).subagents)).toEqual([
			"defaultModel",
			"defaultExtensions",
			"agentScanDirs",
		]);
		const again = await doctor(sb);
		expect(again.code).toBe(0);
		expect(again.report.fix.changes).toEqual([]);
		expect(again.report.findings.every((f) => f.change === null)).toBe(true);
	});

	it("a gate found in <agent dir>/extensions/ and no pi-subagents: nothing to fix (exit 0)", async () => {
		const sb = await cliSandbox();
		mkdirSync(path.join(sb.agentDir, "extensions"), { recursive: true });
		symlinkSync(REPO_ROOT, path.join(sb.agentDir, "extensions", "pi-permission-hub"));
		const { code, report, ok } = await doctor(sb);
		expect(code).toBe(0);
		expect(ok).toBe(true);
		expect(ids(report.findings)).toEqual(["gate-installed", "subagents-not-installed"]);
		expect(report.gate.loaded_by).toEqual([
			{
				origin: "extensions-dir",
				entry: path.join(sb.agentDir, "extensions", "pi-permission-hub", "dist", "extension", "index.js"),
				location: path.join(sb.agentDir, "extensions", "pi-permission-hub", "dist", "extension", "index.js"),
			},
		]);
		// The package directory, not the file inside it, is what children's lists get.
		expect(report.gate.entry_for_children).toBe(REPO_ROOT);
		expect(existsSync(settingsFile(sb))).toBe(false);
	});

	it("an empty agent dir: --fix creates settings.json with this copy in packages", async () => {
		const sb = await cliSandbox();
		const { code, report } = await doctor(sb, ["--fix"]);
		expect(code).toBe(0);
		expect(report.fix.changes).toEqual([
			{ file: settingsFile(sb), key: "packages", before: null, after: [REPO_ROOT] },
		]);
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(
			`${JSON.stringify({ packages: [REPO_ROOT] }, null, 2)}\n`,
		);
		expect(ids(report.remaining?.findings ?? [])).toEqual(["gate-installed", "subagents-not-installed"]);
	});

	it("run from a temporary copy of the package: no entry is written for it, the fix is pi install", async () => {
		const sb = await cliSandbox();
		const copy = path.join(sb.root, "tmp", "npx-copy");
		for (const part of ["bin", "dist", "package.json"]) {
			cpSync(path.join(REPO_ROOT, part), path.join(copy, part), { recursive: true });
		}
		symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(copy, "node_modules"));
		await sb.writeSettings({ packages: [SUBAGENTS] });
		const before = readFileSync(settingsFile(sb), "utf8");
		const run = await runCliJson(sb, ["doctor", "--fix"], {
			bin: path.join(copy, "bin", "pi-permission-hub.mjs"),
		});
		expect(run.code).toBe(1);
		const report = reportSchema.parse(run.json);
		expect(report.gate.entry_for_children).toBeNull();
		expect(report.findings.filter((f) => f.severity === "problem").map((f) => [f.id, f.change])).toEqual([
			["gate-not-installed", null],
			["subagents-default-extensions-missing", null],
		]);
		expect(report.findings[0]?.fix).toContain(
			`pi install npm:pi-permission-hub (this command runs from ${copy}`,
		);
		expect(report.fix).toEqual({ mode: "apply", applied: false, changes: [] });
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(before);
	});
});

describe("doctor: what counts as the gate is what the runtime check counts", () => {
	it("an entry that names the gate but does not load it now: a problem that --fix leaves to pi install", async () => {
		const sb = await cliSandbox();
		for (const packages of [["npm:pi-permission-hub"], [{ source: REPO_ROOT, extensions: ["dist/*.js"] }]]) {
			await sb.writeSettings({ packages });
			const before = readFileSync(settingsFile(sb), "utf8");
			const { code, report } = await doctor(sb, ["--fix"]);
			expect(code).toBe(1);
			expect(report.gate.installed).toBe(false);
			expect(ids(report.findings)).toEqual(["gate-not-installed", "subagents-not-installed"]);
			expect(report.findings[0]?.change).toBeNull();
			expect(report.findings[0]?.explanation).toContain("names it");
			expect(report.findings[0]?.fix).toContain("pi install npm:pi-permission-hub");
			// Another copy in "packages" would not help: pi keeps the first entry of a package.
			expect(report.fix.changes).toEqual([]);
			expect(readFileSync(settingsFile(sb), "utf8")).toBe(before);
		}
	});

	it("an agent directory too large to read in full is a problem: an agent in the rest may run ungated", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({
			packages: [SUBAGENTS, REPO_ROOT],
			subagents: { defaultExtensions: [REPO_ROOT] },
		});
		const agents = path.join(sb.agentDir, "agents");
		mkdirSync(agents, { recursive: true });
		for (let i = 0; i < 2001; i++) writeFileSync(path.join(agents, `note-${i}.md`), "# a note\n");
		const { code, report } = await doctor(sb);
		expect(code).toBe(1);
		expect(report.findings.filter((f) => f.severity === "problem").map((f) => [f.id, f.file])).toEqual([
			["agent-definitions-not-all-read", agents],
		]);
	});
});

describe("doctor: projects and agent definitions", () => {
	it("a project .pi/settings.json list without the gate is a problem; --fix adds the entry there too", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({
			packages: [SUBAGENTS, REPO_ROOT],
			subagents: { defaultExtensions: [REPO_ROOT] },
		});
		const project = path.join(sb.root, "project");
		const projectSettings = path.join(project, ".pi", "settings.json");
		mkdirSync(path.dirname(projectSettings), { recursive: true });
		writeFileSync(
			projectSettings,
			'{\n\t"subagents": { "defaultExtensions": ["/opt/other-extension"] },\n\t"theme": "light"\n}\n',
		);

		const first = await doctor(sb, ["--project", project]);
		expect(first.code).toBe(1);
		expect(first.report.project_dir).toBe(project);
		expect(ids(first.report.findings)).toEqual([
			"project-default-extensions-without-gate",
			"extension-path-missing",
			"gate-installed",
		]);
		expect(first.report.findings[0]?.explanation).toContain("whether or not pi trusts the project");
		expect(first.report.findings[0]?.change).toEqual({
			file: projectSettings,
			key: "subagents.defaultExtensions",
			before: ["/opt/other-extension"],
			after: ["/opt/other-extension", REPO_ROOT],
		});
		const userBefore = readFileSync(settingsFile(sb), "utf8");

		const fixed = await doctor(sb, ["--project", project, "--fix"]);
		expect(fixed.code).toBe(0);
		// The text is edited where the list is: the rest of the line, the tabs and the other key stay as written.
		expect(readFileSync(projectSettings, "utf8")).toBe(
			`{\n\t"subagents": { "defaultExtensions": [\n\t\t\t"/opt/other-extension",\n\t\t\t${JSON.stringify(REPO_ROOT)}\n\t\t] },\n\t"theme": "light"\n}\n`,
		);
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(userBefore);
		// The working directory is the default project.
		const fromCwd = await runCliJson(sb, ["doctor"], { cwd: project });
		expect(fromCwd.code).toBe(0);
	});

	it("a project's list naming a planted package called pi-permission-hub is a problem: only a real copy of the gate counts", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({
			packages: [SUBAGENTS, REPO_ROOT],
			subagents: { defaultExtensions: [REPO_ROOT] },
		});
		const project = path.join(sb.root, "project");
		const impostor = path.join(project, ".pi", "impostor");
		mkdirSync(impostor, { recursive: true });
		writeFileSync(
			path.join(impostor, "package.json"),
			JSON.stringify({ name: "pi-permission-hub", pi: { extensions: ["./index.js"] } }),
		);
		writeFileSync(path.join(impostor, "index.js"), "export default function nothing() {}\n");
		writeFileSync(
			path.join(project, ".pi", "settings.json"),
			JSON.stringify({ subagents: { defaultExtensions: [impostor] } }),
		);

		const { code, report } = await doctor(sb, ["--project", project]);
		expect(code).toBe(1);
		expect(ids(report.findings)).toContain("project-default-extensions-without-gate");
	});

	it("agents whose own extensions: leave the gate out are problems that --fix does not touch", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({
			packages: [SUBAGENTS, REPO_ROOT],
			subagents: {
				defaultExtensions: [REPO_ROOT],
				agentOverrides: { reviewer: { extensions: false } },
			},
		});
		const userAgent = await sb.writeAgentFile(
			"agents/nogate.md",
			`---\nname: nogate\ndescription: lists only the model\nextensions: ${FAUX_MODEL_EXTENSION}\n---\nWork.\n`,
		);
		mkdirSync(sb.workPath(".pi/agents"), { recursive: true });
		symlinkSync(REPO_ROOT, sb.workPath(".pi/gate-copy"));
		// `../` entries are relative to the agent file; a block list; the gate in subagentOnlyExtensions also counts.
		await sb.writeWorkFile(
			".pi/agents/gated.md",
			`---\nname: gated\ndescription: block list\nextensions:\n  - ${FAUX_MODEL_EXTENSION}\n  - ../gate-copy\n---\n`,
		);
		await sb.writeWorkFile(
			".pi/agents/extra.md",
			`---\nname: extra\ndescription: extra list\nextensions: ${FAUX_MODEL_EXTENSION}\nsubagentOnlyExtensions: ${REPO_ROOT}\n---\n`,
		);
		const projectAgent = await sb.writeWorkFile(
			".pi/agents/nested/empty.md",
			"---\nname: empty\ndescription: no extensions at all\nextensions:\n---\n",
		);
		const agentBefore = readFileSync(userAgent, "utf8");
		const settingsBefore = readFileSync(settingsFile(sb), "utf8");

		const { code, report } = await doctor(sb, ["--fix"]);
		expect(code).toBe(1);
		const problems = report.findings.filter((f) => f.severity === "problem");
		expect(problems.map((f) => [f.id, f.file])).toEqual([
			["agent-override-extensions-without-gate", settingsFile(sb)],
			["agent-extensions-without-gate", userAgent],
			["agent-extensions-without-gate", projectAgent],
		]);
		expect(problems.every((f) => f.change === null)).toBe(true);
		expect(problems[0]?.explanation).toContain('"subagents.agentOverrides.reviewer.extensions"');
		expect(problems[1]?.fix).toContain(`add ${JSON.stringify(REPO_ROOT)} to the "extensions:"`);
		expect(report.fix.changes).toEqual([]);
		expect(report.remaining).toBeNull();
		expect(readFileSync(userAgent, "utf8")).toBe(agentBefore);
		expect(readFileSync(settingsFile(sb), "utf8")).toBe(settingsBefore);

		const text = await runCli(sb, ["doctor"]);
		expect(text.code).toBe(1);
		expect(text.stdout).toContain(`problem  agent-extensions-without-gate  (${userAgent})`);
		expect(text.stderr).toContain("pi-permission-hub doctor: 3 problems found");
	});
});

describe("doctor: @tintinweb/pi-subagents", () => {
	it("its children need the gate in the agent dir (--fix installs it); agent files that leave it out are problems it leaves", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({ packages: [TINTINWEB] });
		const isolated = await sb.writeWorkFile(
			".pi/agents/loner.md",
			"---\ndescription: d\nisolated: true\n---\n",
		);
		const excluding = path.join(sb.agentDir, "agents", "picky.md");
		mkdirSync(path.dirname(excluding), { recursive: true });
		// The built gate's entry (dist/extension/index.js) answers there to its package's name and to "extension".
		writeFileSync(excluding, "---\ndescription: d\nexclude_extensions: extension\n---\n");
		writeFileSync(path.join(sb.agentDir, "agents", "plain.md"), "---\ndescription: d\n---\n");
		const narrow = path.join(sb.agentDir, "agents", "narrow.md");
		writeFileSync(narrow, "---\ndescription: d\nextensions: other\n---\n");
		for (const [agent, kept] of [
			["named", "pi-permission-hub"],
			["older", "extension"],
		]) {
			writeFileSync(
				path.join(sb.agentDir, "agents", `${agent}.md`),
				`---\ndescription: d\nextensions: ${kept}\n---\n`,
			);
		}

		const first = await doctor(sb, ["--project", sb.workPath(".")]);
		expect(first.code).toBe(1);
		expect(first.report.findings.filter((f) => f.severity === "problem").map((f) => [f.id, f.file])).toEqual([
			["gate-not-installed", settingsFile(sb)],
			["tintinweb-agent-without-gate", excluding],
			["tintinweb-agent-without-gate", isolated],
		]);
		const about = first.report.findings.find((f) => f.id === "tintinweb-subagents-installed");
		expect(about?.explanation).toContain("whether or not pi trusts it");
		expect(first.report.findings.find((f) => f.file === isolated)?.fix).toBe(
			`remove \`isolated: true\` in ${isolated}; the doctor does not edit agent files`,
		);

		const fixed = await doctor(sb, ["--project", sb.workPath("."), "--fix"]);
		expect(fixed.report.fix.changes).toEqual([
			{ file: settingsFile(sb), key: "packages", before: [TINTINWEB], after: [TINTINWEB, REPO_ROOT] },
		]);
		// Now that settings load the gate, a list that keeps neither of its names drops it; either name keeps it.
		const left = (fixed.report.remaining?.findings ?? []).filter(
			(f) => f.id === "tintinweb-agent-without-gate",
		);
		expect(left.map((f) => f.file)).toEqual([narrow, excluding, isolated]);
		expect(left[0]?.fix).toBe(
			`add "pi-permission-hub" to \`extensions:\` in ${narrow}; the doctor does not edit agent files`,
		);
		expect(fixed.report.remaining?.findings.map((f) => f.id)).not.toContain("gate-not-installed");
	});
});

describe("doctor: files it cannot use and usage", () => {
	it("unparseable or mistyped settings exit 2, even with --fix, and are never rewritten", async () => {
		const sb = await cliSandbox();
		for (const content of [
			'{ "packages": [ "npm:pi-subagents", ]',
			'{ "subagents": { "defaultExtensions": "x" } }',
		]) {
			await sb.writeAgentFile("settings.json", content);
			const before = statSync(settingsFile(sb)).mtimeMs;
			for (const args of [[], ["--fix"]]) {
				const { code, json } = await runCliJson(sb, ["doctor", ...args]);
				expect(code).toBe(2);
				expect(json).toMatchObject({ ok: false, error: { kind: "io" } });
				expect(json.error?.message).toContain(settingsFile(sb));
				expect(json.error?.message).toContain("changes nothing");
			}
			expect(readFileSync(settingsFile(sb), "utf8")).toBe(content);
			expect(statSync(settingsFile(sb)).mtimeMs).toBe(before);
		}
		// Something that is not a file where the settings should be: unreadable, not absent.
		await rm(settingsFile(sb));
		mkdirSync(settingsFile(sb));
		const notFile = await runCliJson(sb, ["doctor", "--fix"]);
		expect(notFile.code).toBe(2);
		expect(notFile.json.error?.message).toContain(`${settingsFile(sb)} is not a regular file`);
		await rm(settingsFile(sb), { recursive: true });
		const projectBroken = await sb.writeWorkFile(".pi/settings.json", "not json");
		await sb.writeSettings({});
		const run = await runCli(sb, ["doctor", "--fix"]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(`${projectBroken} is not valid JSON`);
		expect(readFileSync(projectBroken, "utf8")).toBe("not json");
	});

	it("--dry-run needs --fix; --project must be a directory", async () => {
		const sb = await cliSandbox();
		const missing = await runCliJson(sb, ["doctor", "--project", "no-such-dir"]);
		expect(missing.code).toBe(2);
		expect(missing.json.error).toMatchObject({
			kind: "io",
			message: `${sb.workPath("no-such-dir")} is not a directory`,
		});
		const { code, json } = await runCliJson(sb, ["doctor", "--dry-run"]);
		expect(code).toBe(1);
		expect(json.error).toMatchObject({
			kind: "usage",
			message: expect.stringContaining("--dry-run goes with --fix"),
		});
	});
});

/** The root delegates to pi-subagents' builtin `delegate` (in the foreground); the child runs `rm`. */
async function writeFauxScript(sb: Sandbox): Promise<void> {
	await writeScript(sb, {
		conversations: [
			{ match: "CHILD-TASK", turns: [{ calls: [bash("rm -f victim.txt")] }, { echo: true }] },
			{
				turns: [
					{
						calls: [
							{
								tool: "subagent",
								input: {
									agent: "delegate",
									task: "CHILD-TASK delete victim.txt",
									context: "fresh",
									async: false,
								},
							},
						],
					},
					{ echo: true },
				],
			},
		],
	});
}

/** The root's own ask (the `subagent` call) is allowed once; the forwarded one is answered by `forwarded`. */
function rootAllows(forwarded: DialogPolicy): DialogPolicy {
	return (request) => {
		if (request.title.includes("\nRequested by: ")) return forwarded(request);
		if (request.method !== "select") throw new Error(`unexpected dialog ${request.title}`);
		return { select: "Allow once" };
	};
}

describe("doctor --fix with a real pi and pi-subagents", () => {
	it("after the fix, a pi-subagents child's rm asks the root (denied there: the file stays)", async () => {
		const sb = await cliSandbox();
		await sb.writeSettings({ packages: [SUBAGENTS], extensions: [FAUX_MODEL_EXTENSION] });
		const fixed = await doctor(sb, ["--fix"]);
		expect(fixed.code).toBe(0);
		const lose = fixed.report.remaining?.findings.find((f) => f.id === "subagents-children-lose-extensions");
		expect(lose?.fix).toContain(JSON.stringify(FAUX_MODEL_EXTENSION));
		// What that warning says: the children need the model provider too.
		const settings = z
			.object({ subagents: z.object({ defaultExtensions: z.array(z.string()) }) })
			.loose()
			.parse(readJson(settingsFile(sb)));
		await sb.writeSettings({
			...settings,
			subagents: { defaultExtensions: [...settings.subagents.defaultExtensions, FAUX_MODEL_EXTENSION] },
		});
		const clean = await doctor(sb);
		expect(clean.report.counts).toEqual({ problem: 0, warning: 0, info: 2 });

		await sb.writeWorkFile("victim.txt", "keep me");
		await writeFauxScript(sb);
		const rpc = await startRpc({
			sandbox: sb,
			dialog: rootAllows(denyAll),
			timeoutMs: 90_000,
		});
		const { sessionId: rootId } = await rpc.getState();
		const run = await rpc.prompt("ROOT: delegate the clean-up");

		expect(run.dialogs.map((d) => d.request.title.split("\n")[0])).toEqual([
			expect.stringContaining("subagent"),
			expect.stringContaining("bash (destructive)"),
		]);
		expect(run.dialogs[1]?.request.title).toContain("Requested by: subagent");
		expect(existsSync(sb.workPath("victim.txt"))).toBe(true);
		await expect
			.poll(
				() =>
					auditEntries(auditLogPath(sb)).some(
						(e) =>
							e.sessionId !== rootId && e.tool === "bash" && JSON.stringify(e.source).includes('"forwarded"'),
					),
				{ timeout: 5_000 },
			)
			.toBe(true);
	}, 120_000);
});

describe("doctor: the OS sandbox (adr/0017)", () => {
	it("says whether the sandbox is on and whether bubblewrap can build one here, with what to do", async () => {
		const sb = await cliSandbox();
		const byDefault = await doctor(sb);
		// On by default.
		expect(byDefault.report.findings.find((f) => f.id.startsWith("sandbox-"))).toMatchObject({
			id: "sandbox-on",
			severity: "info",
			fix: "nothing to do",
		});

		const configDir = path.join(sb.agentDir, "pi-permission-hub");
		mkdirSync(configDir, { recursive: true });
		writeFileSync(path.join(configDir, "config.json"), JSON.stringify({ sandbox: { enabled: false } }));
		const off = await doctor(sb);
		const offFinding = off.report.findings.find((f) => f.id.startsWith("sandbox-"));
		expect(offFinding).toMatchObject({ id: "sandbox-off", severity: "info" });
		expect(offFinding?.explanation).toContain("bubblewrap (/usr/bin/bwrap) can run one here");
		expect(offFinding?.fix).toContain('remove "enabled": false');
		const text = await runCli(sb, ["doctor"]);
		expect(text.stdout).toContain("sandbox-off");
	});

	it("with pi-subagents installed, the sandbox finding says how the root's commands are contained", async () => {
		const sb = await cliSandbox();
		npmInstall(sb, "pi-subagents", SUBAGENTS);
		await sb.writeSettings({ packages: ["npm:pi-subagents"] });

		const { report } = await doctor(sb);

		const found = report.findings.find((f) => f.id.startsWith("sandbox-"));
		expect(found).toMatchObject({ id: "sandbox-on", severity: "info" });
		expect(found?.explanation).toContain("pi-subagents is installed");
		expect(found?.explanation).toContain(
			"the gate rewrites each allowed command of the root into the sandbox before pi's bash runs it",
		);
		// Where no sandbox can run, the root's silent calls ask: nothing could contain pi's own bash.
		const missing = await probeAt(null);
		const settings = { enabled: true, required: false, human: false, networkAllow: [], exclude: [] };
		const unavailable = sandboxFinding(settings, missing, ["config.json"], "settings.json packages");
		expect(unavailable.explanation).toContain(
			"every bash call that would run without a human asks one instead",
		);
	});

	it("a sandbox that is on but cannot run is a warning that names the install command", async () => {
		const missing = await probeAt(null);
		const settings = { enabled: true, required: false, human: false, networkAllow: [], exclude: [] };
		const unavailable = sandboxFinding(settings, missing, ["config.json"]);
		expect(unavailable).toMatchObject({ id: "sandbox-unavailable", severity: "warning" });
		expect(unavailable.explanation).toContain("bubblewrap (bwrap) is not installed");
		expect(unavailable.explanation).toContain("run unsandboxed");
		expect(unavailable.fix).toContain("apt install bubblewrap");
		const required = sandboxFinding({ ...settings, required: true }, missing, ["config.json"]);
		expect(required.explanation).toContain("asks one instead");
		expect(sandboxFinding({ ...settings, enabled: false }, missing, ["config.json"]).fix).toContain(
			"apt install bubblewrap",
		);
	});

	it("a bubblewrap that is installed but may not build a sandbox is not told to install bubblewrap", async () => {
		const sb = await cliSandbox();
		// Answers --help like bubblewrap, and fails to build a sandbox the way it does where user namespaces are off.
		const bwrap = path.join(sb.root, "bwrap");
		writeFileSync(
			bwrap,
			'#!/bin/sh\nif [ "$1" = --help ]; then echo "usage: bwrap [OPTIONS...] [--] COMMAND [ARGS...]"; exit 0; fi\necho "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n',
		);
		chmodSync(bwrap, 0o755);
		const probe = await probeAt(bwrap);
		expect(probe.usable).toBe(false);
		const settings = { enabled: true, required: false, human: false, networkAllow: [], exclude: [] };
		for (const found of [
			sandboxFinding(settings, probe, ["config.json"]),
			sandboxFinding({ ...settings, enabled: false }, probe, ["config.json"]),
		]) {
			expect(found.explanation).toContain("does not allow non-privileged user namespaces");
			expect(found.fix).not.toContain("install bubblewrap");
			expect(found.fix).toContain("allow unprivileged user namespaces");
		}
	});
});
