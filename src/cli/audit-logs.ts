/**
 * Reading the audit log as the commands do: which files (the live log and its rotated generations, or `--log`),
 * streamed in order, with corrupt lines counted rather than fatal.
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AuditEntry } from "../audit/audit-entry.ts";
import { type AuditReadStats, readAuditLog } from "../audit/audit-entry.ts";
import { errorMessage } from "../vocabulary/error-message.ts";
import { fsErrorCode } from "../vocabulary/fs-error-code.ts";
import { CliError } from "./command.ts";

/** Where the gate writes its audit log (see src/gate/session-parts.ts). */
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

export interface LogFileReport {
	readonly path: string;
	/** `missing`: no such file (nothing recorded yet, or rotated away while reading). */
	readonly status: "read" | "missing";
	readonly entries: number;
	readonly corrupt: number;
}

export interface AuditScan {
	readonly files: readonly LogFileReport[];
	readonly entries: number;
	/** Lines skipped as torn, garbage, oversized or not matching the schema. */
	readonly corrupt: number;
}

/**
 * Stream every file in order through `onEntry`: memory stays bounded by one line, whatever the log's size.
 * Corrupt lines are counted, never fatal; a file that exists but cannot be read is an I/O error.
 */
export async function scanAuditLogs(
	files: readonly string[],
	onEntry: (entry: AuditEntry) => void,
): Promise<AuditScan> {
	const reports: LogFileReport[] = [];
	for (const path of files) {
		const stats: AuditReadStats = { entries: 0, corrupt: 0 };
		try {
			await readAuditLog(path, onEntry, stats);
			reports.push({ path, status: "read", ...stats });
		} catch (error) {
			const code = fsErrorCode(error);
			if (code !== "ENOENT" || stats.entries + stats.corrupt > 0) {
				throw new CliError("io", `cannot read the audit log ${path}: ${errorMessage(error)}`);
			}
			reports.push({ path, status: "missing", entries: 0, corrupt: 0 });
		}
	}
	return {
		files: reports,
		entries: reports.reduce((sum, r) => sum + r.entries, 0),
		corrupt: reports.reduce((sum, r) => sum + r.corrupt, 0),
	};
}

/** Where the entries came from, and how many corrupt lines were skipped, for a command's header line. */
export function describeScan(scan: AuditScan): string {
	const read = scan.files.filter((f) => f.status === "read");
	const where =
		read.length === 0
			? `no audit log at ${scan.files.map((f) => f.path).join(", ")}`
			: read.length === 1
				? `from ${read[0]?.path}`
				: `from ${read.length} files (${read.map((f) => f.path).join(", ")})`;
	const corrupt =
		scan.corrupt === 0
			? ""
			: `; ${scan.corrupt} corrupt line${scan.corrupt === 1 ? "" : "s"} skipped (torn, garbage, oversized or not an audit entry)`;
	return `${where}${corrupt}`;
}

/** The scan as it appears in every JSON envelope that read the log. */
export function scanJson(scan: AuditScan): Record<string, unknown> {
	return {
		log_files: scan.files.map((f) => ({
			path: f.path,
			status: f.status,
			entries: f.entries,
			corrupt_lines: f.corrupt,
		})),
		entries_read: scan.entries,
		corrupt_lines: scan.corrupt,
	};
}
