/**
 * Entry of the `pi-permission-hub` command (bin/pi-permission-hub.mjs loads the compiled dist/cli/main.js).
 * Every outcome ends in an exit code: 0 done, 1 usage / invalid / no match / refused, 2 input or output failed.
 */

import { errorMessage } from "../vocabulary/error-message.ts";
import { CliError, type ExitCode, exitCodeOf } from "./cli-error.ts";
import { type CliIo, processIo } from "./cli-io.ts";
import type { CommandResult, OutputFormat } from "./command-spec.ts";
import { COMMANDS } from "./commands.ts";
import { globalSettings } from "./global-options.ts";
import { commandHelp, mainHelp } from "./help-text.ts";
import { jsonEnvelope } from "./json-envelope.ts";
import { packageVersion } from "./package-version.ts";
import { parseCommandLine, scanCommandLine } from "./parse-command-line.ts";

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

/** Run as the process's command: exit code set, never thrown. */
export async function runFromProcess(): Promise<void> {
	process.exitCode = await runCli(process.argv.slice(2));
}
