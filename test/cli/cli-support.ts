/**
 * Running the BUILT CLI (`node bin/pi-permission-hub.mjs …`) as a process against sandboxes that real pi runs
 * filled, plus the pi runs themselves (print mode, the built extension, the scripted model).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import { type FauxToolCall, writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, node22Binary, REPO_ROOT } from "../harness/paths.ts";
import { type JsonRunResult, runPrint } from "../harness/print-run.ts";
import { type CommandResult, runCommand } from "../harness/run-command.ts";
import { createSandbox, inheritedEnvironment, type Sandbox } from "../harness/sandbox.ts";

export const CLI_BIN = path.join(REPO_ROOT, "bin", "pi-permission-hub.mjs");
const CLI_MAIN = path.join(REPO_ROOT, "dist", "cli", "main.js");
const CLI_SOURCES = path.join(REPO_ROOT, "src", "cli");

/** The tests run the compiled CLI: fail at once, with the fix, when it is missing or older than its sources. */
export function assertCliBuilt(): void {
	if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: run \`npm run build\` first`);
	const built = statSync(CLI_MAIN).mtimeMs;
	const newest = Math.max(
		...readdirSync(CLI_SOURCES, { recursive: true, encoding: "utf8" })
			.filter((name) => name.endsWith(".ts"))
			.map((name) => statSync(path.join(CLI_SOURCES, name)).mtimeMs),
	);
	if (newest > built) throw new Error(`${CLI_MAIN} is older than src/cli: run \`npm run build\` first`);
}

export type CliRun = CommandResult;

export interface CliOptions {
	/** Variables over the sandbox's scrubbed environment (which sets PI_CODING_AGENT_DIR to its agent dir). */
	readonly env?: Readonly<Record<string, string>>;
	readonly cwd?: string;
	/** Node flags before the script, e.g. a heap limit. */
	readonly nodeArgs?: readonly string[];
	/** Another copy of the bin file (to run it without dist/). */
	readonly bin?: string;
	/** Standard input for the command. */
	readonly stdin?: string;
}

/** `node bin/pi-permission-hub.mjs <args>` in the sandbox's environment; rejects only if it hangs. */
export function runCli(
	sb: Sandbox | null,
	args: readonly string[],
	options: CliOptions = {},
): Promise<CliRun> {
	const base = sb
		? sb.env(options.env)
		: {
				...inheritedEnvironment(process.env),
				PATH: `${path.dirname(node22Binary())}${path.delimiter}${process.env.PATH ?? ""}`,
				...options.env,
			};
	const cliArgs = [...(options.nodeArgs ?? []), options.bin ?? CLI_BIN, ...args];
	return runCommand(node22Binary(), cliArgs, {
		cwd: options.cwd ?? sb?.workDir ?? REPO_ROOT,
		env: base,
		timeoutMs: 60_000,
		...(options.stdin === undefined ? {} : { stdin: options.stdin }),
	});
}

const envelopeSchema = z.looseObject({
	schema_version: z.literal(1),
	command: z.string(),
	ok: z.boolean(),
	error: z.object({ kind: z.string(), message: z.string() }).optional(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

/** stdout of a `--format json` run: exactly one envelope document, nothing on stderr. */
export function envelopeOf(run: CliRun): Envelope {
	if (run.stderr !== "") throw new Error(`--format json wrote to stderr: ${run.stderr}`);
	const envelope = envelopeSchema.parse(JSON.parse(run.stdout));
	if (envelope.ok !== (envelope.error === undefined)) throw new Error(`ok and error disagree: ${run.stdout}`);
	return envelope;
}

/** `runCli` with `--format json`, returning exit code and envelope. */
export async function runCliJson(
	sb: Sandbox | null,
	args: readonly string[],
	options: CliOptions = {},
): Promise<{ readonly code: number | null; readonly json: Envelope }> {
	const run = await runCli(sb, [...args, "--format", "json"], options);
	return { code: run.code, json: envelopeOf(run) };
}

const live: Sandbox[] = [];

export async function cliSandbox(): Promise<Sandbox> {
	const sb = await createSandbox();
	live.push(sb);
	return sb;
}

export async function cleanupCliSandboxes(): Promise<void> {
	await Promise.all(live.splice(0).map((sb) => sb.cleanup()));
}

export function bash(command: string): FauxToolCall {
	return { tool: "bash", input: { command } };
}

/** One real print-mode (`--mode json`) pi run with the built extension, playing one batch of calls. */
export async function piRun(
	sb: Sandbox,
	calls: readonly FauxToolCall[],
	env?: Readonly<Record<string, string>>,
): Promise<JsonRunResult> {
	await writeScript(sb, { conversations: [{ turns: [{ calls: [...calls] }, { echo: true }] }] });
	return runPrint({
		sandbox: sb,
		prompt: "do the task",
		extensions: [EXTENSION_ENTRY],
		mode: "json",
		...(env ? { env } : {}),
	});
}

/** The request id in a "pending approval <id>" block reason. */
export function parkedId(text: string): string {
	const id = /pending approval ([0-9A-HJKMNP-TV-Z]{26})/.exec(text)?.[1];
	if (id === undefined) throw new Error(`not a parked call: ${text}`);
	return id;
}

/** The text of the only result of the call whose command is `command`. */
export function resultText(run: JsonRunResult, command: string): { isError: boolean; text: string } {
	const ids = run.events
		.filter(
			(e) => e.type === "tool_execution_start" && JSON.stringify(e.args).includes(JSON.stringify(command)),
		)
		.map((e) => e.toolCallId);
	const found = run.toolResults.filter((r) => ids.includes(r.toolCallId));
	const [only] = found;
	if (found.length !== 1 || only === undefined) throw new Error(`expected one result for ${command}`);
	return { isError: only.isError, text: only.text };
}

export function auditLogPath(sb: Sandbox): string {
	return path.join(sb.agentDir, "pi-permission-hub", "audit.jsonl");
}

/** Every line of the audit log, parsed by the product's reader (a line it rejects fails the test). */
export function auditEntries(file: string): AuditEntry[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => {
			const entry = parseAuditLine(line);
			if (entry === null) throw new Error(`unparsable audit line: ${line}`);
			return entry;
		});
}

/** pi writes its last audit lines at exit; the writer appends off the decision path, so allow a moment. */
export async function waitForAuditLines(file: string, count: number): Promise<AuditEntry[]> {
	// Generous: on a loaded machine the log's last lines can land seconds after the run.
	const deadline = Date.now() + 20_000;
	for (;;) {
		const entries = auditEntries(file);
		if (entries.length >= count || Date.now() > deadline) return entries;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}
