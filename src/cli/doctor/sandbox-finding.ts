import type { SandboxSettings } from "../../policy/effective-policy.ts";
import type { BubblewrapProbe } from "../../sandbox/bubblewrap.ts";
import { type Finding, finding } from "./finding.ts";

/**
 * Whether the OS sandbox (adr/0017) can run on this machine, and whether the config turns it on: a sandbox that
 * is on but cannot run is a problem (commands run unsandboxed, or with `required` every silent call asks).
 */
export function sandboxFinding(
	settings: SandboxSettings,
	probe: BubblewrapProbe,
	configFiles: readonly string[],
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
	if (!probe.usable) {
		return finding("sandbox-unavailable", {
			file: null,
			explanation: settings.required
				? `The sandbox is on and required, but none can run here: ${probe.why}. Every bash call that would run without a human asks one instead.`
				: `The sandbox is on, but none can run here: ${probe.why}. Bash commands run unsandboxed.`,
			fix: `${probe.fix === null ? "" : `${probe.fix}; or, `}to run without it and not be told, add "sandbox": { "enabled": false } to ${where}`,
		});
	}
	return finding("sandbox-on", {
		file: null,
		explanation: `The sandbox is on and bubblewrap (${probe.path}) can run it: bash commands allowed without a human run in the sandbox of their tier${settings.human ? ", and so do a human's approvals (sandbox.human)" : ""}.`,
		fix: "nothing to do",
	});
}
