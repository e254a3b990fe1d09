/**
 * How this session's bash comes to run in the sandbox (adr/0017): pi's bash tool, registered again with a spawn
 * hook — unless pi-subagents runs in this session. It gives its in-process children only the tools it sees as
 * pi's own (built in), so a registered `bash` would leave them without one (their own gates sandbox their
 * commands); pi's own bash runs the root's calls, and the gate rewrites each allowed command into the sandbox.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { nodeFileView } from "../launchers/file-view.ts";
import { identifyLauncher } from "../launchers/known-launcher.ts";
import { type BashKit, registerSandboxedBash } from "./sandboxed-bash-tool.ts";
import type { Sandboxing } from "./sandboxing.ts";

export function startSandbox(
	pi: ExtensionAPI,
	kit: BashKit,
	sandboxing: Pick<Sandboxing, "start" | "startRewriting">,
): void {
	if (piSubagentsRuns(pi.getAllTools())) {
		sandboxing.startRewriting(
			"pi-subagents runs in this session and needs pi's own bash tool for its children",
		);
		return;
	}
	registerSandboxedBash(pi, kit);
	sandboxing.start();
}

/**
 * Whether pi-subagents runs in this session: it gives its in-process children only the tools it sees as pi's
 * own, so the gate registers none of its own there (bash, read, write, edit; adr/0017). The session's write
 * and edit calls then ask a human (adr/0014).
 */
export function piSubagentsRuns(tools: ReturnType<ExtensionAPI["getAllTools"]>): boolean {
	const subagent = tools.find((tool) => tool.name === "subagent");
	const launcher =
		subagent && identifyLauncher({ name: subagent.name, sourcePath: subagent.sourceInfo.path }, nodeFileView);
	return launcher?.kind === "pi-subagents";
}
