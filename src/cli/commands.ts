import type { CommandSpec } from "./command-spec.ts";
import { agentAllowCommand, agentDenyCommand } from "./commands/agent-rule.ts";
import { approveCommand } from "./commands/approve.ts";
import { checkCommand } from "./commands/check.ts";
import { denyCommand } from "./commands/deny.ts";
import { explainCommand } from "./commands/explain.ts";
import { pendingCommand } from "./commands/pending.ts";
import { policyInitCommand } from "./commands/policy-init.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { validateCommand } from "./commands/validate.ts";
import { doctorCommand } from "./doctor/doctor-command.ts";

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
	sessionsCommand,
	explainCommand,
	checkCommand,
	pendingCommand,
	approveCommand,
	denyCommand,
	policyInitCommand,
	agentAllowCommand,
	agentDenyCommand,
	validateCommand,
	doctorCommand,
];
