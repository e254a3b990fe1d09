import { resolve } from "node:path";
import { loadBashParser } from "../../classify/bash/bash-parser.ts";
import { buildEffectivePolicy } from "../../policy/build-effective-policy.ts";
import { type ConfigIssue, describeJsonPath, placeText } from "../../policy/config-error.ts";
import { brokenConfigPath, type MissingConfig, readTextFromDisk } from "../../policy/config-file.ts";
import { refreshSchemaCopies } from "../../policy/config-json-schema.ts";
import {
	expandHome,
	managedConfigPath,
	projectConfigPath,
	userConfigPath,
} from "../../policy/config-paths.ts";
import type { ConfigScope } from "../../policy/config-schema.ts";
import type { PolicyWarning } from "../../policy/effective-policy.ts";
import { parseConfigText } from "../../policy/parse-config-text.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { fsErrorCode } from "../../vocabulary/fs-error-code.ts";
import { CliError, type CommandResult, type CommandSpec, usageError } from "../command.ts";
import { displayLine, plural } from "../display-text.ts";
import { ownPackageRoot } from "../own-package.ts";

export const validateCommand: CommandSpec = {
	name: "validate",
	summary: "check a config file and list every problem with its JSON path and line",
	synopsis: "[FILE] [--project DIR | --managed]",
	help: `Checks a config file exactly as the gate loads it (JSONC, the same zod schema, patterns compiled, every
rule's examples tested against their rule) and lists every problem with its JSON path and line, plus warnings
(e.g. an allow rule that matches actions above the grant ceiling). Relative path examples are taken from the
current directory (or DIR). Without arguments it checks the user config, <agent dir>/pi-permission-hub/config.json.
Exit code 0 valid (or absent: without a file of its own a scope adds nothing, and the defaults apply), 1 invalid,
2 unreadable, or a FILE named here that does not exist.

Options:
  --project DIR          check DIR/.pi/pi-permission-hub.json with the project schema (which may only
                         tighten: no authorizerChain, no grantCeiling)
  --managed              check the managed config ($PI_PERMISSION_HUB_MANAGED_CONFIG, else
                         /etc/pi-permission-hub/config.json) with the managed schema (adr/0024)`,
	options: { project: { type: "string" }, managed: { type: "boolean" } },
	positionals: { min: 0, max: 1, name: "the config file" },
	async run(input) {
		const project = input.options.string("project");
		const { io } = input;
		const managed = input.options.flag("managed");
		if ([project !== undefined, input.args.length > 0, managed].filter(Boolean).length > 1) {
			throw usageError("give one of a FILE, --project DIR or --managed");
		}
		const scope: ConfigScope = managed ? "managed" : project === undefined ? "user" : "project";
		const projectDir = project === undefined ? io.cwd : resolve(io.cwd, expandHome(project, io.homeDir));
		const file = managed
			? managedConfigPath(io.env)
			: project !== undefined
				? projectConfigPath(projectDir)
				: input.args[0] !== undefined
					? resolve(io.cwd, expandHome(input.args[0], io.homeDir))
					: userConfigPath(input.agentDir);

		// The schema an editor checks the file against, next to the user config (`"$schema": "./config.schema.json"`).
		if (scope === "user" && input.args[0] === undefined) {
			await refreshSchemaCopies(input.agentDir, ownPackageRoot()).catch(() => undefined);
		}
		const text = readConfigText(file, input.args[0] === undefined);
		if (text === null) return noPolicyYet(file, scope);
		const parsed = parseConfigText(text, file, scope);
		let problems: readonly ConfigIssue[];
		let warnings: readonly PolicyWarning[] = [];
		if (parsed.status === "invalid") problems = parsed.error.issues;
		else {
			// Compiling the patterns can still fail (a bad glob), and so can a rule's examples; the gate would fail
			// closed on either, so each is a problem here.
			const missing = (s: ConfigScope, f: string): MissingConfig => ({
				status: "missing",
				file: f,
				scope: s,
			});
			const policy = buildEffectivePolicy({
				context: { cwd: projectDir, homeDir: io.homeDir },
				user: scope === "user" ? parsed : missing("user", userConfigPath(input.agentDir)),
				project: scope === "project" ? parsed : missing("project", projectConfigPath(projectDir)),
				managed: scope === "managed" ? parsed : missing("managed", managedConfigPath(io.env)),
				examples: { bash: await loadBashParser(), agentDir: input.agentDir },
			});
			problems = policy.configErrors.flatMap((e) => e.issues);
			warnings = policy.warnings;
		}
		const valid = problems.length === 0;
		const data = {
			file,
			scope,
			valid,
			problems: problems.map((p) => ({
				json_path: p.jsonPath,
				line: p.line,
				column: p.column ?? null,
				problem: p.problem,
			})),
			warnings: warnings.map((w) => ({ json_path: w.jsonPath, line: w.line, warning: w.message })),
		};
		const lines = [
			valid
				? `pi-permission-hub validate: ${file} is a valid ${scope} config${warnings.length > 0 ? ` (${plural(warnings.length, "warning")})` : ""}.`
				: `pi-permission-hub validate: ${file} is not a valid ${scope} config: ${plural(problems.length, "problem")}.`,
			...problems.map((p) => `  ${where(p, p.jsonPath)}: ${displayLine(p.problem, 1000)}`),
			...warnings.map((w) => `  warning ${where(w, w.jsonPath)}: ${displayLine(w.message, 1000)}`),
		];
		if (!valid) {
			return {
				exitCode: 1,
				data,
				text: lines.join("\n"),
				// The text already says so, one line per problem: no second summary on stderr.
				failure: { kind: "invalid", message: `${file} is not a valid ${scope} config`, shownInText: true },
			};
		}
		return { exitCode: 0, data, text: lines.join("\n") };
	},
};

function where(place: Pick<ConfigIssue, "line" | "column">, jsonPath: string): string {
	const at = placeText(place);
	return `${at === "" ? "" : `${at}, `}${displayLine(describeJsonPath(jsonPath), 300)}`;
}

/**
 * The file's text; null when it is simply absent and the file is the scope's own (no FILE given): the gate then
 * runs without it, as it does without a policy. A file named on the command line must exist.
 */
function readConfigText(file: string, scopeFile: boolean): string | null {
	try {
		// The loader's own reader: never blocks on a FIFO or reads a device, and stops one byte past the limit.
		return readTextFromDisk(file);
	} catch (error) {
		const code = fsErrorCode(error);
		const broken = code === "ENOENT" || code === "ENOTDIR" ? brokenConfigPath(file) : undefined;
		if (broken === null && scopeFile) return null;
		const why = broken === null ? "no such file" : (broken ?? errorMessage(error));
		throw new CliError("io", `cannot read ${file}: ${why}`);
	}
}

/** What a scope without its file means: the gate's defaults (user), nothing tightened (project, managed). */
const WITHOUT_FILE: Readonly<Record<ConfigScope, string>> = {
	user: "no policy yet: the defaults apply (reads run, everything else asks); write your rules there",
	project: "no project policy: this project tightens nothing",
	managed: "no managed config: nothing is enforced above the user's policy",
};

function noPolicyYet(file: string, scope: ConfigScope): CommandResult {
	const data = { file, scope, valid: true, missing: true, problems: [], warnings: [] };
	return { exitCode: 0, data, text: `pi-permission-hub validate: ${file}: ${WITHOUT_FILE[scope]}.` };
}
