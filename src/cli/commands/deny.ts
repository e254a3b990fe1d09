import { answerParked } from "../answer-parked.ts";
import type { CommandSpec } from "../command-spec.ts";

export const denyCommand: CommandSpec = {
	name: "deny",
	summary: "deny a parked request: it is closed and the action stays blocked",
	synopsis: "<id> [--reason TEXT]",
	help: `Answers a parked request with a denial: the request is closed (no session offers it again) and the
action stays blocked. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one
audit line (event "cli", decided by user via cli).

Options:
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: { reason: { type: "string" } },
	positionals: { min: 1, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "deny"),
};
