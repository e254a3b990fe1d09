import { answerParked } from "../answer-parked.ts";
import type { CommandSpec } from "../command-spec.ts";
import { PARKED_FILTER_HELP, PARKED_FILTER_OPTIONS } from "../parked-selection.ts";

export const denyCommand: CommandSpec = {
	name: "deny",
	summary: "deny a parked request (or --all of them): it is closed and the action stays blocked",
	synopsis: "<id> | --all [filters] [--reason TEXT]",
	help: `Answers a parked request with a denial: the request is closed (no session offers it again) and the
action stays blocked. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one
audit line per answer (event "cli", decided by user via cli).

With --all instead of an id, every parked request still waiting for an answer is denied, or only those the
filters select (the same filters as "pending"). Exit code 1 when none is selected.

Options:
  --all                  every waiting request (that the filters below select)
${PARKED_FILTER_HELP}
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: { ...PARKED_FILTER_OPTIONS, all: { type: "boolean" }, reason: { type: "string" } },
	positionals: { min: 0, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "deny"),
};
