import type { CommandSpec } from "./command-spec.ts";
import { GLOBAL_HELP } from "./global-options.ts";

export function mainHelp(commands: readonly CommandSpec[], version: string): string {
	const width = Math.max(...commands.map((c) => c.name.length));
	return `pi-permission-hub ${version}: the operator CLI of the pi-permission-hub permission gate.

Usage: pi-permission-hub <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

${GLOBAL_HELP}
  --version              print the version

Exit codes: 0 done; 1 usage error, invalid input, no match or refused; 2 a file could not be read or written.
"pi-permission-hub <command> --help" describes a command.`;
}

export function commandHelp(command: CommandSpec): string {
	const synopsis = command.synopsis === "" ? "" : ` ${command.synopsis}`;
	return `Usage: pi-permission-hub ${command.name}${synopsis} [global options]

${command.summary[0]?.toUpperCase() ?? ""}${command.summary.slice(1)}.

${command.help}

${GLOBAL_HELP}`;
}
