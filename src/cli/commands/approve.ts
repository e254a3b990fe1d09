import { answerParked } from "../answer-parked.ts";
import type { CommandSpec } from "../command-spec.ts";

export const approveCommand: CommandSpec = {
	name: "approve",
	summary: "approve a parked request: the identical action may run once",
	synopsis: "<id> [--once] [--reason TEXT]",
	help: `Answers a parked request with an approval. The approval covers exactly that action (same tool, input,
directory and tier: its action hash) and is used up by the first attempt that runs it; a different action
still asks. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one audit line
(event "cli", decided by user via cli).

Options:
  --once                 the scope of every CLI approval, stated explicitly (one identical action)
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: { once: { type: "boolean" }, reason: { type: "string" } },
	positionals: { min: 1, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "allow"),
};
