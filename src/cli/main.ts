/**
 * Entry of the `pi-permission-hub` command (bin/pi-permission-hub.mjs loads the compiled dist/cli/main.js): its
 * commands, and running one of them. Every outcome ends in an exit code: 0 done, 1 usage / invalid / no match /
 * refused, 2 input or output failed.
 */

import { errorMessage } from "../vocabulary/error-message.ts";
import {
	CliError,
	type CliIo,
	type CommandResult,
	type CommandSpec,
	type ExitCode,
	exitCodeOf,
	type FailureKind,
	type OutputFormat,
	processIo,
} from "./command.ts";
import { commandHelp, globalSettings, mainHelp, parseCommandLine, scanCommandLine } from "./command-line.ts";
import { agentAllowCommand, agentDenyCommand, policyInitCommand } from "./commands/agent-rules.ts";
import { approveCommand, denyCommand } from "./commands/answer-parked.ts";
import { checkCommand } from "./commands/check.ts";
import { explainCommand } from "./commands/explain.ts";
import { pendingCommand } from "./commands/pending.ts";
import { rulesListCommand, rulesRemoveCommand } from "./commands/saved-rules.ts";
import { sessionsCommand } from "./commands/sessions.ts";
import { validateCommand } from "./commands/validate.ts";
import { doctorCommand } from "./doctor/doctor-command.ts";
import { packageVersion } from "./own-package.ts";

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
	rulesListCommand,
	rulesRemoveCommand,
	validateCommand,
	doctorCommand,
];

export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<ExitCode> {
	const scan = scanCommandLine(argv, COMMANDS);
	let format: OutputFormat = scan.format;
	let command = scan.spec?.name ?? "pi-permission-hub";
	try {
		const line = parseCommandLine(argv, COMMANDS);
		const settings = globalSettings(line.options, io);
		format = settings.format;
		if (line.kind === "version") {
			const { version } = packageVersion();
			return emit(io, format, "version", {
				exitCode: 0,
				data: { version },
				text: `pi-permission-hub ${version}`,
			});
		}
		if (line.kind === "help") {
			const text = line.spec ? commandHelp(line.spec) : mainHelp(COMMANDS, packageVersion().version);
			return emit(io, format, "help", { exitCode: 0, data: { topic: line.spec?.name ?? null, text }, text });
		}
		command = line.spec.name;
		const result = await line.spec.run({ io, ...settings, args: line.args, options: line.options });
		return emit(io, format, command, result);
	} catch (error) {
		const failure =
			error instanceof CliError
				? { kind: error.kind, message: error.message }
				: { kind: "io" as const, message: `unexpected failure: ${errorMessage(error)}` };
		return emit(io, format, command, { exitCode: exitCodeOf(failure.kind), data: {}, text: "", failure });
	}
}

function emit(io: CliIo, format: OutputFormat, command: string, result: CommandResult): ExitCode {
	if (result.streamed === true) {
		if (result.failure) io.stderr(`pi-permission-hub ${command}: ${result.failure.message}\n`);
		return result.exitCode;
	}
	if (format === "json") {
		io.stdout(jsonEnvelope(command, result.data, result.failure));
		return result.exitCode;
	}
	if (result.text !== "") io.stdout(`${result.text}\n`);
	if (result.failure && result.failure.shownInText !== true) {
		const name = command === "pi-permission-hub" ? command : `pi-permission-hub ${command}`;
		io.stderr(`${name}: ${result.failure.message}\n`);
	}
	return result.exitCode;
}

/** Bumped only when a field changes meaning or disappears; new fields keep the number. */
const JSON_SCHEMA_VERSION = 1;

/** `--format json` prints exactly one document: this envelope, with the command's own fields after `ok`. */
function jsonEnvelope(
	command: string,
	data: Readonly<Record<string, unknown>>,
	failure: { readonly kind: FailureKind; readonly message: string } | undefined,
): string {
	const envelope = {
		schema_version: JSON_SCHEMA_VERSION,
		command,
		ok: failure === undefined,
		...(failure ? { error: { kind: failure.kind, message: failure.message } } : {}),
		...data,
	};
	return `${JSON.stringify(envelope, null, 2)}\n`;
}

/** Run as the process's command: exit code set, never thrown. */
export async function runFromProcess(): Promise<void> {
	process.exitCode = await runCli(process.argv.slice(2));
}
