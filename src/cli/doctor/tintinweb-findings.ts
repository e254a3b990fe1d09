/**
 * @tintinweb/pi-subagents: its `Agent` tool runs children inside the pi process, each with a fresh resource
 * loader that discovers what the agent dir (and the project's `.pi/`, trusted or not) loads, never `-e`. So the
 * gate installed in the agent dir gates them (gate-not-installed covers that, with its `--fix`); what an agent
 * file takes away (`isolated`, `extensions:`, `exclude_extensions:`) needs a person.
 */
import { basename } from "node:path";
import { childGateVerdict } from "../../launchers/child-gate.ts";
import type { KnownLauncher } from "../../launchers/known-launcher.ts";
import type { GatePackage } from "../../launchers/package-manifest.ts";
import type { SettingsResource } from "../../launchers/settings-resources.ts";
import {
	type TintinwebRun,
	tintinwebAgentDirectories,
	tintinwebAgentFor,
} from "../../launchers/tintinweb-agent.ts";
import { type DoctorInput, type Finding, finding } from "./finding.ts";
import { describeResource } from "./gate-findings.ts";

/** `gate`: the copy of the gate that counts as the gate in an agent file's `extensions:` (by real path). */
export function tintinwebFindings(
	installedBy: readonly SettingsResource[],
	input: DoctorInput,
	gate: GatePackage | null,
): Finding[] {
	const { view } = input;
	const launcher: KnownLauncher = { kind: "tintinweb-pi-subagents", packageRoot: null, source: null };
	const about = finding("tintinweb-subagents-installed", {
		file: null,
		explanation: `@tintinweb/pi-subagents is installed (${installedBy.map(describeResource).join("; ")}). Its Agent tool runs subagents inside the pi process with the extensions the agent dir and the project's .pi/settings.json load (the project's whether or not pi trusts it), never the session's -e flags: they are gated when the gate is installed in the agent dir. A call or agent file with "isolated: true" runs them with no extension at all.`,
		fix: "nothing to do when the gate is installed in the agent dir; see the other findings",
	});
	// Each agent type the directories define, by what it runs with (the highest-priority file, or for a disabled
	// one general-purpose's extensions), once per file to change: a file another shadows never runs, and an
	// unreadable one is skipped by the launcher as by this.
	const types = new Set(
		tintinwebAgentDirectories(input.agentDir, input.projectDir).flatMap((dir) =>
			view
				.list(dir)
				.filter((name) => name.endsWith(".md"))
				.map((name) => basename(name, ".md")),
		),
	);
	// Each run that comes from a file, once per file (an unparsable file included: the guard asks for it).
	const agents = new Map<string, NonNullable<TintinwebRun> & { readonly file: string }>();
	for (const type of types) {
		for (const agent of tintinwebAgentFor(type, input.agentDir, input.projectDir, view)) {
			if (agent?.file && !agents.has(agent.file)) agents.set(agent.file, { ...agent, file: agent.file });
		}
	}
	const findings = [...agents.values()].flatMap((agent): Finding[] => {
		const verdict = childGateVerdict({
			launcher,
			call: {
				launches: true,
				foreground: true,
				agents: [basename(agent.file, ".md")],
				cwds: [input.projectDir],
				withoutExtensions: false,
				tasks: [],
				tintinwebRuns: [agent],
			},
			agentDir: input.agentDir,
			homeDir: input.homeDir,
			projectTrusted: true,
			env: input.env,
			gate,
			fixEntries: null,
			files: view,
		});
		// Only what the agent file itself decides: the settings' part is gate-not-installed's.
		if (verdict.gated || verdict.fix.file !== agent.file) return [];
		return [
			finding("tintinweb-agent-without-gate", {
				file: agent.file,
				explanation: `${verdict.why}: its subagents run ungated.`,
				fix: `${verdict.fix.text}; the doctor does not edit agent files`,
			}),
		];
	});
	return [about, ...findings];
}
