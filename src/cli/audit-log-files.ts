import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fsErrorCode } from "../policy/fs-error-code.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { CliError } from "./cli-error.ts";

/** Where the gate writes its audit log (see src/gate/session-gate.ts). */
export function defaultAuditLog(agentDir: string): string {
	return join(agentDir, "pi-permission-hub", "audit.jsonl");
}

/**
 * The files to read, oldest first. With `--log` that one file; otherwise the rotated generations
 * (`audit.N.jsonl` … `audit.1.jsonl`, N the oldest) and then the live file.
 */
export function auditLogFiles(agentDir: string, log: string | undefined): readonly string[] {
	if (log !== undefined) return [log];
	const live = defaultAuditLog(agentDir);
	return [...rotatedGenerations(live), live];
}

function rotatedGenerations(live: string): string[] {
	const dir = dirname(live);
	const stem = basename(live).replace(/\.jsonl$/, "");
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch (error) {
		const code = fsErrorCode(error);
		if (code === "ENOENT" || code === "ENOTDIR") return [];
		throw new CliError("io", `cannot list ${dir}: ${errorMessage(error)}`);
	}
	const generation = new RegExp(`^${escapeRegExp(stem)}\\.(\\d{1,6})\\.jsonl$`);
	return names
		.map((name) => ({ name, n: Number(generation.exec(name)?.[1] ?? Number.NaN) }))
		.filter((g) => Number.isInteger(g.n) && g.n > 0)
		.sort((a, b) => b.n - a.n)
		.map((g) => join(dir, g.name));
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
