/**
 * `--auto`: runs the demo's pi in RPC mode and plays the human. Every dialog the gate opens arrives as an RPC
 * `select`; the player prints it as the human would read it and picks the answer the demo script expects
 * (allow, allow, allow, deny). A dialog it does not expect is denied (never allowed by accident) and reported.
 */
import { spawn } from "node:child_process";
import { z } from "zod";
import type { DemoWorld } from "./demo-world.ts";
import { PI_CLI } from "./demo-world.ts";
import {
	DEMO_MODEL,
	DEMO_PROMPT,
	dialogHeading,
	dialogMatches,
	EXPECTED_DIALOGS,
	type ExpectedDialog,
	textOf,
} from "./scenario.ts";

export interface AnsweredDialog {
	readonly title: string;
	readonly options: readonly string[];
	readonly answer: string;
	readonly expected: boolean;
}

export interface AutoRun {
	readonly dialogs: readonly AnsweredDialog[];
	/** What went differently from the script: unexpected or missing dialogs, a non-zero exit. */
	readonly problems: readonly string[];
}

const recordSchema = z.looseObject({ type: z.string() });
const selectSchema = z.looseObject({
	type: z.literal("extension_ui_request"),
	id: z.string(),
	method: z.literal("select"),
	title: z.string(),
	options: z.array(z.string()),
});
const otherDialogSchema = z.looseObject({
	type: z.literal("extension_ui_request"),
	id: z.string(),
	method: z.enum(["confirm", "input", "editor"]),
	title: z.string(),
});
const messageEndSchema = z.looseObject({
	type: z.literal("message_end"),
	message: z.looseObject({ role: z.string(), content: z.unknown() }),
});
const toolEndSchema = z.looseObject({
	type: z.literal("tool_execution_end"),
	toolName: z.string(),
	isError: z.boolean().optional(),
	result: z.looseObject({ content: z.unknown() }).optional(),
});
const responseSchema = z.looseObject({
	type: z.literal("response"),
	id: z.string().optional(),
	command: z.string().optional(),
	success: z.boolean(),
	error: z.string().optional(),
});

const GRACE_MS = 5_000;

export async function playAuto(
	world: DemoWorld,
	options: { readonly timeoutMs: number; readonly print: (line: string) => void },
): Promise<AutoRun> {
	const { print } = options;
	const dialogs: AnsweredDialog[] = [];
	const problems: string[] = [];
	let stderr = "";

	const child = spawn(process.execPath, [PI_CLI, "--mode", "rpc", "--model", DEMO_MODEL, "--no-session"], {
		cwd: world.projectDir,
		env: world.env(),
		stdio: ["pipe", "pipe", "pipe"],
		// Its own process group, so a timeout can stop pi together with the subagent and tool processes it started.
		detached: true,
	});
	const send = (command: Record<string, unknown>): void => {
		child.stdin.write(`${JSON.stringify(command)}\n`);
	};
	child.stdin.on("error", () => {});
	child.stderr.setEncoding("utf8");
	child.stderr.on("data", (chunk: string) => {
		stderr += chunk;
	});

	const answer = (request: z.infer<typeof selectSchema>): void => {
		const expected = EXPECTED_DIALOGS[dialogs.length];
		const fits = expected !== undefined && dialogMatches(request.title, expected);
		const label = fits ? expected.answer.label : denyLabel(request.options);
		if (!fits) problems.push(`unexpected dialog #${dialogs.length + 1}: ${request.title.split("\n")[0]}`);
		dialogs.push({ title: request.title, options: request.options, answer: label, expected: fits });
		printDialog(print, dialogs.length, request.title, request.options, label);
		send({ type: "extension_ui_response", id: request.id, value: label });
	};

	const onRecord = (record: z.infer<typeof recordSchema>): void => {
		const select = selectSchema.safeParse(record);
		if (select.success) {
			answer(select.data);
			return;
		}
		const other = otherDialogSchema.safeParse(record);
		if (other.success) {
			problems.push(`unexpected ${other.data.method} dialog: ${other.data.title}`);
			send({ type: "extension_ui_response", id: other.data.id, cancelled: true });
			return;
		}
		const message = messageEndSchema.safeParse(record);
		if (message.success && message.data.message.role === "assistant") {
			const text = textOf(message.data.message.content).trim();
			if (text) print(indent("model", text));
			return;
		}
		const toolEnd = toolEndSchema.safeParse(record);
		if (toolEnd.success) {
			const text = textOf(toolEnd.data.result?.content).trim().split("\n")[0] ?? "";
			const verdict = toolEnd.data.isError ? "blocked/failed" : "ran";
			print(`  [${toolEnd.data.toolName} ${verdict}]${text ? ` ${text.slice(0, 160)}` : ""}`);
			return;
		}
		const response = responseSchema.safeParse(record);
		if (response.success && !response.data.success) {
			problems.push(`pi refused ${response.data.command ?? "a command"}: ${response.data.error ?? ""}`);
			child.stdin.end();
			return;
		}
		if (record.type === "agent_settled") child.stdin.end();
	};

	let buffer = "";
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		buffer += chunk;
		for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
			const line = buffer.slice(0, end).trim();
			buffer = buffer.slice(end + 1);
			if (!line) continue;
			const parsed = recordSchema.safeParse(parseJson(line));
			if (parsed.success) onRecord(parsed.data);
		}
	});

	send({ type: "prompt", message: DEMO_PROMPT, id: "demo-prompt" });

	const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>(
		(resolve) => {
			let timedOut = false;
			const timer = setTimeout(() => {
				timedOut = true;
				killGroup(child.pid, "SIGTERM");
				setTimeout(() => killGroup(child.pid, "SIGKILL"), GRACE_MS).unref();
			}, options.timeoutMs);
			child.once("error", (error) => {
				stderr += `\n${error.message}`;
			});
			child.once("close", (code, signal) => {
				clearTimeout(timer);
				resolve({ code, signal, timedOut });
			});
		},
	);

	if (exit.timedOut) problems.push(`pi did not finish within ${options.timeoutMs / 1000} s and was stopped`);
	else if (exit.code !== 0) problems.push(`pi exited with ${exit.code ?? exit.signal}`);
	const missing = EXPECTED_DIALOGS.slice(dialogs.length);
	for (const dialog of missing) problems.push(`no dialog came for: ${describe(dialog)}`);
	if (problems.length > 0 && stderr.trim())
		problems.push(`pi's stderr (last lines):\n${stderr.slice(-2_000)}`);
	return { dialogs, problems };
}

function describe(dialog: ExpectedDialog): string {
	return `${dialogHeading(dialog)} / ${dialog.tool}: ${dialog.preview}`;
}

/** Fail closed: an unplanned dialog gets the plain deny. */
function denyLabel(options: readonly string[]): string {
	return options.find((o) => o === "Deny") ?? options.at(-1) ?? "Deny";
}

function printDialog(
	print: (line: string) => void,
	index: number,
	title: string,
	options: readonly string[],
	picked: string,
): void {
	const [heading = "", ...body] = title.split("\n");
	print(`  ┌ dialog ${index}: ${heading}`);
	for (const line of body) print(`  │ ${line}`);
	print(`  │ choices: ${options.join(" | ")}`);
	print(`  └ the demo answers: ${picked}`);
}

function indent(who: string, text: string): string {
	return text
		.split("\n")
		.map((line, i) => (i === 0 ? `${who}> ${line}` : `${" ".repeat(who.length + 2)}${line}`))
		.join("\n");
}

function parseJson(line: string): unknown {
	try {
		return JSON.parse(line);
	} catch {
		return undefined;
	}
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}
