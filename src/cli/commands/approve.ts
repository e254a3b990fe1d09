import { answerParked } from "../answer-parked.ts";
import type { CommandSpec } from "../command-spec.ts";
import { PARKED_FILTER_HELP, PARKED_FILTER_OPTIONS } from "../parked-selection.ts";

export const approveCommand: CommandSpec = {
	name: "approve",
	summary: "approve a parked request (or --all of them): the identical action may run once",
	synopsis: "<id> | --all [filters] [--once] [--reason TEXT]",
	help: `Answers a parked request with an approval. The approval covers exactly that action (same tool, input,
directory and tier: its action hash) and is used up by the first attempt that runs it; a different action
still asks. Refused (exit code 1) when the id is unknown, expired or already answered. Writes one audit line
per answer (event "cli", decided by user via cli).

With --all instead of an id, every parked request still waiting for an answer is approved, or only those the
filters select (the same filters as "pending"; check with "pending" first). Exit code 1 when none is selected.

Options:
  --all                  every waiting request (that the filters below select)
${PARKED_FILTER_HELP}
  --once                 the scope of every CLI approval, stated explicitly (one identical action)
  --reason TEXT          why, recorded in the answer and the audit line`,
	options: {
		...PARKED_FILTER_OPTIONS,
		all: { type: "boolean" },
		once: { type: "boolean" },
		reason: { type: "string" },
	},
	positionals: { min: 0, max: 1, name: "the request id" },
	run: (input) => answerParked(input, "allow"),
};
