import { resolve } from "node:path";
import type { ParseArgsOptionsConfig } from "node:util";
import { expandHome, resolveAgentDir } from "../policy/config-paths.ts";
import { usageError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import type { OutputFormat } from "./command-spec.ts";
import type { OptionValues } from "./option-values.ts";

/** Accepted by every command. */
export const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
	log: { type: "string" },
	"agent-dir": { type: "string" },
	format: { type: "string" },
	help: { type: "boolean", short: "h" },
	version: { type: "boolean" },
};

export const GLOBAL_HELP = `Global options:
  --agent-dir <dir>      pi's agent directory (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent)
  --log <file>           read this audit log file only (default: <agent dir>/pi-permission-hub/audit.jsonl
                         and its rotated generations audit.1.jsonl …, oldest first)
  --format text|json     output for people (default) or one JSON document on stdout
  -h, --help             help for the command`;

export function parseFormat(value: string | undefined): OutputFormat {
	if (value === undefined || value === "text") return "text";
	if (value === "json") return "json";
	throw usageError(`--format must be "text" or "json" (got ${JSON.stringify(value)})`);
}

export interface GlobalSettings {
	readonly agentDir: string;
	readonly log: string | undefined;
	readonly format: OutputFormat;
}

export function globalSettings(options: OptionValues, io: CliIo): GlobalSettings {
	const agentDirOption = options.string("agent-dir");
	const logOption = options.string("log");
	if (agentDirOption === "") throw usageError("--agent-dir must not be empty");
	if (logOption === "") throw usageError("--log must not be empty");
	return {
		agentDir:
			agentDirOption === undefined
				? resolveAgentDir(io.env, io.homeDir)
				: resolve(io.cwd, expandHome(agentDirOption, io.homeDir)),
		log: logOption === undefined ? undefined : resolve(io.cwd, expandHome(logOption, io.homeDir)),
		format: parseFormat(options.string("format")),
	};
}
