import type { SandboxSettings } from "../../policy/effective-policy.ts";
import type { BubblewrapProbe } from "../../sandbox/bubblewrap.ts";
import { type Finding, finding } from "./finding.ts";

/**
 * Whether the OS sandbox (adr/0017) can run on this machine, and whether the config turns it on: a sandbox that
 * is on but cannot run is a problem (commands run unsandboxed, or with `required` every silent call asks).
 * `piSubagents`: where pi-subagents is installed (null: it is not). The root session then keeps pi's own bash
 * tool for its children, and the gate rewrites each allowed command into the sandbox instead of running it in its
 * own tool; where no sandbox can run, every call that would run without a human asks one.
 */
export function sandboxFinding(
	settings: SandboxSettings,
	probe: BubblewrapProbe,
	configFiles: readonly string[],
	piSubagents: string | null = null,
): Finding {
	const where = configFiles.join(" or ");
	if (!settings.enabled) {
		return finding("sandbox-off", {
			file: null,
			explanation: probe.usable
				? `The sandbox is off (the user config turns it off); bubblewrap (${probe.path}) can run one here. With it on, bash commands allowed without a human run in the sandbox of their tier: a read reads, a write writes in the project, only network-egress reaches the network.`
				: `The sandbox is off, and none could run here: ${probe.why}.`,
			fix: probe.usable
				? `to turn it on, remove "enabled": false from "sandbox" in ${where}`
				: `${probe.fix === null ? "" : `${probe.fix}, then `}remove "enabled": false from "sandbox" in ${where}`,
		});
	}
	const launcher =
		piSubagents === null
			? ""
			: ` pi-subagents is installed (${piSubagents}): it needs pi's own bash tool in the root session, so the gate rewrites each allowed command of the root into the sandbox before pi's bash runs it; its children's own gates sandbox theirs.`;
	if (!probe.usable) {
		return finding("sandbox-unavailable", {
			file: null,
			explanation: settings.required
				? `The sandbox is on and required, but none can run here: ${probe.why}. Every bash call that would run without a human asks one instead.`
				: piSubagents !== null
					? `The sandbox is on, but none can run here: ${probe.why}. pi-subagents is installed (${piSubagents}), so the root session runs pi's own bash tool, whose commands the gate can only contain by rewriting them into a sandbox: every bash call that would run without a human asks one instead.`
					: `The sandbox is on, but none can run here: ${probe.why}. Bash commands run unsandboxed.`,
			fix: `${probe.fix === null ? "" : `${probe.fix}; or, `}to run without it and not be told, add "sandbox": { "enabled": false } to ${where}`,
		});
	}
	return finding("sandbox-on", {
		file: null,
		explanation: `The sandbox is on and bubblewrap (${probe.path}) can run it: bash commands allowed without a human run in the sandbox of their tier${settings.human ? ", and so do a human's approvals (sandbox.human)" : ""}.${launcher}`,
		fix: "nothing to do",
	});
}
