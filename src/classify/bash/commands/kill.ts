/** kill: it signals processes (write); init (1) or every process (-1) is privileged. Its operands are not paths. */
import type { TierRaise } from "../../tier-raise.ts";
import { type CommandSpec, rows } from "./command-spec.ts";

function refineKill(args: readonly string[]): TierRaise | undefined {
	const targets: string[] = [];
	let signalSeen = false;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] ?? "";
		if (arg === "--") {
			targets.push(...args.slice(i + 1));
			break;
		}
		if (arg === "-s" || arg === "-n") {
			i++;
			continue;
		}
		if (arg.startsWith("-") && !signalSeen) {
			signalSeen = true;
			continue;
		}
		targets.push(arg);
	}
	return targets.some((target) => target === "1" || target === "-1")
		? { tier: "privileged", reason: "kill targets init or every process" }
		: undefined;
}

export const KILL: CommandSpec = {
	tiers: rows("write", ["kill *"]),
	refine: refineKill,
	paths: { operands: "none" },
};
