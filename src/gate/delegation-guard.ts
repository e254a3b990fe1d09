import { fileURLToPath } from "node:url";
import type { ToolCall } from "../classify/action.ts";
import { type ChildGateVerdict, childGateVerdict } from "../launchers/child-gate.ts";
import type { FileView } from "../launchers/file-view.ts";
import {
	type DelegationCall,
	identifyLauncher,
	type KnownLauncher,
	readDelegationCall,
} from "../launchers/known-launcher.ts";
import { type GatePackage, gatePackageAt } from "../launchers/package-manifest.ts";

/** A call of a known launcher's tool: what it starts, and whether those children would carry the gate. */
export interface Delegation {
	readonly launcher: KnownLauncher;
	readonly call: DelegationCall;
	readonly verdict: ChildGateVerdict;
}

export interface DelegationGuardOptions {
	/** `sourceInfo.path` of a tool in this session, or null when pi does not know it. */
	readonly toolSource: (tool: string) => string | null;
	readonly agentDir: string;
	readonly homeDir: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly projectTrusted: () => boolean;
	readonly files: FileView;
}

/** This module's own copy of the package: the one a fix should point children at. */
const OWN_MODULE = fileURLToPath(import.meta.url);

/**
 * Tells, for a tool call, whether it delegates to a known subagent launcher and whether the children would run
 * with the permission gate. The answer is worked out from the settings on disk at the time of the call, once
 * per call (the gate asks before the call and the watch after it reads the same answer).
 */
export class DelegationGuard {
	private readonly options: DelegationGuardOptions;
	private readonly gate: GatePackage | null;
	private readonly seen = new WeakMap<object, Delegation | null>();

	constructor(options: DelegationGuardOptions) {
		this.options = options;
		this.gate = gatePackageAt(OWN_MODULE, options.files);
	}

	inspect(call: ToolCall): Delegation | null {
		const known = this.seen.get(call.input);
		if (known !== undefined) return known;
		const found = this.evaluate(call);
		this.seen.set(call.input, found);
		return found;
	}

	private evaluate(call: ToolCall): Delegation | null {
		const { options } = this;
		if (call.tool !== "subagent") return null;
		const launcher = identifyLauncher(
			{ name: call.tool, sourcePath: options.toolSource(call.tool) },
			options.files,
		);
		if (!launcher) return null;
		const delegation = readDelegationCall(launcher, call.input, call.cwd);
		const verdict = childGateVerdict({
			launcher,
			call: delegation,
			agentDir: options.agentDir,
			homeDir: options.homeDir,
			projectTrusted: options.projectTrusted(),
			env: options.env,
			gate: this.gate,
			files: options.files,
		});
		return { launcher, call: delegation, verdict };
	}
}
