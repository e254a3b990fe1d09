import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { hubRoot } from "../../hub/protocol.ts";
import { expandHome } from "../../policy/config-paths.ts";
import { fsErrorCode } from "../../policy/fs-error-code.ts";
import { errorMessage } from "../../vocabulary/error-message.ts";
import { agentRulesScaffold, ObservedOrigins } from "../agent-rules-scaffold.ts";
import { auditLogFiles } from "../audit-log-files.ts";
import { CliError } from "../cli-error.ts";
import { type CommandSpec, success } from "../command-spec.ts";
import { plural } from "../display-text.ts";
import { describeScan, scanAuditLogs, scanJson } from "../scan-audit-logs.ts";

export function defaultScaffoldPath(agentDir: string): string {
	return join(hubRoot(agentDir), "agent-rules.example.jsonc");
}

export const policyInitCommand: CommandSpec = {
	name: "policy init",
	summary: "scaffold an agentRules section from the origins seen in the audit log",
	synopsis: "[--out FILE|-] [--force]",
	help: `Writes a JSONC file with an "agentRules" section listing every origin seen in the audit log (sorted by
kind and name), each entry commented out under both "allow" and "deny" so nothing changes until you uncomment
a line. The file is the same byte for byte on every run over the same log (no times, no paths). A missing log
gives a template with empty sections. An existing file is never overwritten without --force.

Options:
  --out FILE             where to write (default: <agent dir>/pi-permission-hub/agent-rules.example.jsonc);
                         "-" prints it to stdout instead
  --force                overwrite an existing file`,
	options: { out: { type: "string" }, force: { type: "boolean" } },
	positionals: { min: 0, max: 0, name: "" },
	async run(input) {
		const out = input.options.string("out");
		if (out === "") throw new CliError("usage", "--out must not be empty (use - for stdout)");
		const origins = new ObservedOrigins();
		const scan = await scanAuditLogs(auditLogFiles(input.agentDir, input.log), (entry) => origins.add(entry));
		const list = origins.list();
		const content = agentRulesScaffold(list);
		const summary = `${plural(list.length, "origin")} ${describeScan(scan)}${origins.skippedLines > 0 ? `; ${plural(origins.skippedLines, "line")} with an origin name no rule could match left out` : ""}`;
		const data = {
			...scanJson(scan),
			origins: list,
			skipped_origin_lines: origins.skippedLines,
		};
		if (out === "-") {
			return success({ ...data, path: null, written: false, content }, content.trimEnd());
		}
		const path =
			out === undefined
				? defaultScaffoldPath(input.agentDir)
				: resolve(input.io.cwd, expandHome(out, input.io.homeDir));
		const force = input.options.flag("force");
		writeScaffold(path, content, force);
		return success(
			{ ...data, path, written: true, content },
			`pi-permission-hub policy init: wrote ${path} (${summary}).\nEvery entry is commented out: review, then copy what you mean into your config.`,
		);
	},
};

function writeScaffold(path: string, content: string, force: boolean): void {
	try {
		mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
		if (force) writeFileAtomic.sync(path, content, { mode: 0o600 });
		// `wx`: created only if absent, so an existing file is never touched, even by a racing run.
		else writeFileSync(path, content, { flag: "wx", mode: 0o600 });
	} catch (error) {
		if (!force && fsErrorCode(error) === "EEXIST") {
			throw new CliError("exists", `${path} already exists; pass --force to overwrite it`);
		}
		throw new CliError("io", `cannot write ${path}: ${errorMessage(error)}`);
	}
}
