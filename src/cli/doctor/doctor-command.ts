import { resolve } from "node:path";
import { nodeFileView } from "../../launchers/file-view.ts";
import {
	type SettingsChange,
	SettingsWriteError,
	writeSettingsChanges,
} from "../../launchers/settings-change.ts";
import { expandHome } from "../../policy/config-paths.ts";
import { loadPolicy } from "../../policy/load-policy.ts";
import { probeBubblewrap } from "../../sandbox/bubblewrap.ts";
import { CliError, type CommandResult, type CommandSpec, usageError } from "../command.ts";
import { plural } from "../display-text.ts";
import { ownPackageRoot } from "../own-package.ts";
import { type Diagnosis, diagnose } from "./diagnose.ts";
import {
	changeJson,
	changeText,
	countBySeverity,
	type DoctorInput,
	describeCounts,
	type Finding,
	findingJson,
	findingText,
	sortFindings,
} from "./finding.ts";
import { describeResource } from "./gate-findings.ts";
import { sandboxFinding } from "./sandbox-finding.ts";

export const doctorCommand: CommandSpec = {
	name: "doctor",
	summary: "find launcher settings that would start subagents without the gate, and fix them",
	synopsis: "[--project DIR] [--fix [--dry-run]]",
	help: `Checks whether the pi processes and subagents that launchers start would load pi-permission-hub:
  - the gate installed in the agent dir (settings.json "packages" / "extensions", or extensions/), not only
    loaded with -e: processes that launchers spawn load the agent dir, never -e;
  - with pi-subagents installed: "subagents.defaultExtensions" in <agent dir>/settings.json and in the project's
    .pi/settings.json (which replaces it, trusted or not) loading the gate, agents with their own "extensions:",
    "subagents.agentOverrides", and entries that fail open (missing or relative paths, npm: specs);
  - with @tintinweb/pi-subagents installed (its children load what the agent dir loads): agent files whose
    "isolated", "extensions:" or "exclude_extensions:" leave the gate out;
  - whether the OS sandbox for bash commands is on, and whether bubblewrap can build one here.
Each finding has an id, a severity (problem, warning, info), an explanation and the exact fix. Without --fix
nothing is written. Exit code 0 no problems (warnings allowed), 1 problems (after --fix: problems left), 2 a
settings file could not be read or parsed (it is never rewritten).

Options:
  --project DIR          the project children run in (default: the working directory); its .pi/settings.json
                         and those above it, and its .pi/agents/ and .agents/ are checked
  --fix                  apply the settings changes shown (adding to "packages" and "subagents.defaultExtensions"
                         only; the file's text is edited in place: other keys, layout and order are kept)
  --dry-run              with --fix: show the changes, write nothing`,
	options: { project: { type: "string" }, fix: { type: "boolean" }, "dry-run": { type: "boolean" } },
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const { io } = input;
		const fix = input.options.flag("fix");
		const dryRun = input.options.flag("dry-run");
		if (dryRun && !fix) throw usageError("--dry-run goes with --fix: it shows the changes --fix would make");
		const project = input.options.string("project");
		if (project === "") throw usageError("--project must not be empty");
		const projectDir = project === undefined ? io.cwd : resolve(io.cwd, expandHome(project, io.homeDir));
		if (nodeFileView.kind(projectDir) !== "dir") throw new CliError("io", `${projectDir} is not a directory`);
		const doctorInput: DoctorInput = {
			agentDir: input.agentDir,
			projectDir,
			homeDir: io.homeDir,
			env: io.env,
			ownRoot: ownPackageRoot(),
			view: nodeFileView,
		};
		const diagnosed = checked(diagnose(doctorInput));
		const piSubagents = diagnosed.subagents.installedBy.map(describeResource).join("; ");
		const sandbox = await sandboxCheck(input.agentDir, projectDir, io.homeDir, piSubagents || null);
		const found = withFinding(diagnosed, sandbox);
		const changes = plannedChanges(found.findings);
		const apply = fix && !dryRun && changes.length > 0;
		if (apply) applyChanges(changes, found.settingsTexts);
		const after = apply ? withFinding(checked(diagnose(doctorInput)), sandbox) : null;
		return report(doctorInput, found, changes, { fix, dryRun, applied: apply }, after);
	},
};

type Done = Extract<Diagnosis, { status: "done" }>;

/**
 * The sandbox as a session in `projectDir` would have it: the project file counts as trusted (it can only
 * turn the sandbox on), and bubblewrap is probed by building a real sandbox.
 */
async function sandboxCheck(
	agentDir: string,
	projectDir: string,
	homeDir: string,
	piSubagents: string | null,
): Promise<Finding> {
	const policy = loadPolicy({ agentDir, cwd: projectDir, homeDir, projectTrusted: true });
	const files = policy.sources.filter((source) => source.scope === "user").map((source) => source.file);
	return sandboxFinding(policy.sandbox, await probeBubblewrap(), files, piSubagents);
}

function withFinding(done: Done, extra: Finding): Done {
	return { ...done, findings: [...done.findings, extra] };
}

function checked(diagnosis: Diagnosis): Done {
	if (diagnosis.status === "done") return diagnosis;
	throw new CliError(
		"io",
		`${diagnosis.file} ${diagnosis.problem}; the doctor checks nothing and changes nothing until it can read it`,
	);
}

function report(
	input: DoctorInput,
	found: Done,
	changes: readonly SettingsChange[],
	mode: { readonly fix: boolean; readonly dryRun: boolean; readonly applied: boolean },
	after: Done | null,
): CommandResult {
	const findings = sortFindings(found.findings);
	const remaining = after === null ? null : sortFindings(after.findings);
	const problems = countBySeverity(remaining ?? findings).problem;
	const data = {
		agent_dir: input.agentDir,
		project_dir: input.projectDir,
		gate: {
			installed: found.gate.loadedBy.length > 0,
			loaded_by: found.gate.loadedBy.map((r) => ({
				origin: r.kind,
				entry: r.written,
				location: r.location,
			})),
			entry_for_children: found.gate.childEntry,
		},
		subagents: {
			installed: found.subagents.installedBy.length > 0,
			locations: found.subagents.installedBy.map((r) => r.location),
		},
		counts: countBySeverity(findings),
		findings: findings.map(findingJson),
		fix: {
			mode: !mode.fix ? "off" : mode.dryRun ? "dry-run" : "apply",
			applied: mode.applied,
			changes: changes.map(changeJson),
		},
		remaining:
			remaining === null
				? null
				: { counts: countBySeverity(remaining), findings: remaining.map(findingJson) },
	};
	const text = [
		`pi-permission-hub doctor: ${describeCounts(findings)}.`,
		`  agent dir  ${input.agentDir}`,
		`  project    ${input.projectDir}`,
		...findings.map((f) => `\n${findingText(f)}`),
		"",
		...changeSection(changes, mode),
		...(remaining === null
			? []
			: [
					"",
					`After the changes: ${describeCounts(remaining)}.`,
					...remaining.filter((f) => f.severity !== "info").map((f) => `\n${findingText(f)}`),
				]),
	].join("\n");
	if (problems === 0) return { exitCode: 0, data, text };
	return {
		exitCode: 1,
		data,
		text,
		failure: {
			kind: "invalid",
			message: `${plural(problems, "problem")} ${remaining === null ? "found" : "left after the changes"}: children that launchers start may run without the gate`,
		},
	};
}

function changeSection(
	changes: readonly SettingsChange[],
	mode: { readonly fix: boolean; readonly dryRun: boolean; readonly applied: boolean },
): string[] {
	if (changes.length === 0) return mode.fix ? ["No settings change to make."] : [];
	const list = changes.map(changeText);
	if (!mode.fix) {
		return [
			`--fix would make ${plural(changes.length, "settings change")}; "pi-permission-hub doctor --fix --dry-run" shows ${changes.length === 1 ? "it" : "them"}.`,
		];
	}
	return [
		mode.dryRun
			? `--fix would make ${plural(changes.length, "change")} (nothing written: --dry-run):`
			: "Changes:",
		...list,
		...(mode.applied ? [`Applied ${plural(changes.length, "change")}.`] : []),
	];
}

/** The changes of the findings, one per file and key, in the order they were found. */
function plannedChanges(findings: readonly Finding[]): SettingsChange[] {
	const changes: SettingsChange[] = [];
	for (const { change } of findings) {
		if (change !== null && !changes.some((c) => c.file === change.file && c.key === change.key))
			changes.push(change);
	}
	return changes;
}

/** Each change with the text of its file the doctor analysed: written only while the file still holds it. */
function applyChanges(
	changes: readonly SettingsChange[],
	analysed: ReadonlyMap<string, string | null>,
): void {
	try {
		writeSettingsChanges(
			changes.map((change) => {
				const analysedText = analysed.get(change.file);
				if (analysedText === undefined) throw new SettingsWriteError(`${change.file} was not analysed`);
				return { change, analysedText };
			}),
			nodeFileView,
		);
	} catch (error) {
		if (!(error instanceof SettingsWriteError)) throw error;
		throw new CliError("io", `${error.message}. Run it again.`);
	}
}
