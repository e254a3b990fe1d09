/**
 * Shared pieces of the gate's real-pi tests: sandboxes cleaned after each test, config and audit files under the
 * sandbox agent dir, scripts of bash calls, and tool results looked up by the command that produced them.
 */

import { existsSync, readFileSync } from "node:fs";
import { cp, symlink } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { type AuditEntry, parseAuditLine } from "../../src/audit/audit-entry.ts";
import type { FauxScript, FauxToolCall, FauxTurn } from "../harness/faux-script.ts";
import type { JsonRecord } from "../harness/jsonl-record.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc } from "../harness/rpc-session.ts";
import type { ToolResultSummary } from "../harness/run-summary.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";

export const LINKS_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "authorizer-links-extension.ts");
export const MUTATOR_FIXTURE = path.join(REPO_ROOT, "test", "fixtures", "input-mutator-extension.ts");

/**
 * pi loads a file once however it is named (symlinks included), so the second install is a copy of the build, as
 * a second installed package would be: pi runs a second, separate copy of the extension.
 */
export async function copyOfBuild(sb: Sandbox): Promise<string> {
	const secondInstall = path.join(sb.root, "second-install");
	await cp(path.join(REPO_ROOT, "dist"), path.join(secondInstall, "dist"), { recursive: true });
	await cp(path.join(REPO_ROOT, "package.json"), path.join(secondInstall, "package.json"));
	await symlink(path.join(REPO_ROOT, "node_modules"), path.join(secondInstall, "node_modules"));
	return path.join(secondInstall, "dist", "extension", "index.js");
}

const live: Sandbox[] = [];

/** A sandbox that `cleanupSandboxes()` (afterEach) removes. */
export async function gateSandbox(): Promise<Sandbox> {
	const sb = await createSandbox();
	live.push(sb);
	return sb;
}

export async function cleanupSandboxes(): Promise<void> {
	await Promise.all(live.splice(0).map((sb) => sb.cleanup()));
}

/** For `afterEach`: every RPC pi the test started is stopped, then its sandboxes are removed. */
export async function stopRpcAndCleanUp(): Promise<void> {
	await killAllRpc();
	await cleanupSandboxes();
}

export function userConfigFile(sb: Sandbox): string {
	return path.join(sb.agentDir, "pi-permission-hub", "config.json");
}

export function auditFile(sb: Sandbox): string {
	return path.join(sb.agentDir, "pi-permission-hub", "audit.jsonl");
}

/** The user-level config; a string is written as is (to write broken files on purpose). */
export async function writeUserConfig(sb: Sandbox, config: object | string): Promise<string> {
	const text = typeof config === "string" ? config : `${JSON.stringify(config, null, "\t")}\n`;
	return sb.writeAgentFile(path.join("pi-permission-hub", "config.json"), text);
}

export function bash(command: string): FauxToolCall {
	return { tool: "bash", input: { command } };
}

/** One run: the batches one after another (each batch one assistant message), then an echo of the last batch. */
export function scriptOf(...batches: readonly FauxToolCall[][]): FauxScript {
	const turns: FauxTurn[] = [...batches.map((calls): FauxTurn => ({ calls })), { echo: true }];
	return { conversations: [{ turns }] };
}

/**
 * One batch per prompt: a text answer ends a run, so each batch is followed by its echo and the next prompt in
 * the same conversation plays the next batch.
 */
export function promptsOf(...batches: readonly FauxToolCall[][]): FauxScript {
	const turns: FauxTurn[] = batches.flatMap((calls): FauxTurn[] => [{ calls }, { echo: true }]);
	return { conversations: [{ turns }] };
}

/** The raw audit lines (empty when the file does not exist). */
export function auditLines(sb: Sandbox): string[] {
	const file = auditFile(sb);
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "");
}

/**
 * Waits until the audit log has exactly `count` lines (the writer appends off the decision path, a moment after
 * the call), then parses every line with the product's own reader; a line it rejects fails the test.
 */
export async function auditEntries(sb: Sandbox, count: number): Promise<AuditEntry[]> {
	await expect.poll(() => auditLines(sb).length, { timeout: 5_000, interval: 50 }).toBe(count);
	return auditLines(sb).map((line) => {
		const entry = parseAuditLine(line);
		if (entry === null) throw new Error(`parseAuditLine rejected an audit line: ${line}`);
		return entry;
	});
}

/** The audit entry whose preview is exactly `preview`; fails when there is none or more than one. */
export function entryFor(entries: readonly AuditEntry[], preview: string): AuditEntry {
	const matching = entries.filter((e) => e.preview === preview);
	if (matching.length !== 1) {
		throw new Error(
			`expected one audit entry for ${JSON.stringify(preview)}, found ${matching.length}: ` +
				JSON.stringify(entries.map((e) => e.preview)),
		);
	}
	const [entry] = matching;
	if (entry === undefined) throw new Error("unreachable");
	return entry;
}

/**
 * Tool results complete in any order (a blocked call finishes before an allowed sibling runs), so a result is
 * found through the `tool_execution_start` record carrying the call's arguments.
 */
export function resultOf(
	records: readonly JsonRecord[],
	results: readonly ToolResultSummary[],
	command: string,
): ToolResultSummary {
	const ids = records
		.filter((r) => r.type === "tool_execution_start" && commandOf(r.args) === command)
		.map((r) => r.toolCallId);
	const matching = results.filter((result) => ids.includes(result.toolCallId));
	const [result] = matching;
	if (matching.length !== 1 || result === undefined) {
		throw new Error(`expected one tool result for ${JSON.stringify(command)}, found ${matching.length}`);
	}
	return result;
}

function commandOf(args: unknown): string | undefined {
	if (typeof args !== "object" || args === null) return undefined;
	const command: unknown = Reflect.get(args, "command");
	return typeof command === "string" ? command : undefined;
}

/** Lines of a JSONL file a fixture wrote (empty when it does not exist). */
export function jsonlFile(file: string): Record<string, unknown>[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => {
			const value: unknown = JSON.parse(line);
			if (typeof value !== "object" || value === null || Array.isArray(value)) {
				throw new Error(`not a JSON object line: ${line}`);
			}
			return Object.fromEntries(Object.entries(value));
		});
}

/** Phrases that would present "nobody decided" as a human's refusal. */
export const USER_DENIAL = /user denied|denied by the user/i;
