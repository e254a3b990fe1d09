/**
 * Run by the audit writer tests as a separate node process (real O_APPEND concurrency, a real process exit).
 * argv: <file> exit <count> | <file> batches <writerId> <rounds> <batchSize> [maxBytes] [keep]
 */
import { AUDIT_SCHEMA_VERSION, type AuditEntry } from "../../src/audit/audit-entry.ts";
import { AuditWriter } from "../../src/audit/audit-writer.ts";

const [file, mode, ...rest] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: audit-writer-child <file> exit|batches …");

function entry(preview: string): AuditEntry {
	return {
		v: AUDIT_SCHEMA_VERSION,
		time: new Date().toISOString(),
		sessionId: `pid-${process.pid}`,
		event: "tool_call",
		origin: { kind: "headless" },
		tool: "bash",
		tier: "write",
		actionHash: "b".repeat(64),
		preview,
		mode: "ask",
		outcome: "allow",
		source: { kind: "authorizer", link: "test", verdict: "allow" },
		latencyMs: 1,
		configFiles: [],
	};
}

const [maxBytes, keep] = [rest[3], rest[4]];
const writer = new AuditWriter({
	file,
	...(maxBytes ? { maxBytes: Number(maxBytes) } : {}),
	...(keep ? { keep: Number(keep) } : {}),
});
if (mode === "exit") {
	const count = Number(rest[0]);
	for (let i = 0; i < count; i++) void writer.record(entry(`exit-${i}`));
	// No await, no flush: only the writer's exit hook can save these.
	process.exit(0);
} else if (mode === "batches") {
	const [writerId, rounds, batchSize] = [rest[0] ?? "w", Number(rest[1]), Number(rest[2])];
	// Long previews make each batch tens of KiB, so a non-atomic append would show up as torn lines.
	const padding = "p".repeat(400);
	for (let round = 0; round < rounds; round++) {
		for (let i = 0; i < batchSize; i++) void writer.record(entry(`${writerId}:${round}:${i}:${padding}`));
		await writer.flush();
	}
	if (writer.error) throw writer.error;
}
