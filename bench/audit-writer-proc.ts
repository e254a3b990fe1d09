/**
 * One audit-writing process for figure 13: argv <file> <writerId> <lines> [maxBytes] [keep]. It writes `lines`
 * entries as the gate writes an allowed call's (each on disk before it returns). `lines` 0 writes until killed and
 * prints each entry's number on stdout once it is on disk: a line printed here must be in the log, whatever
 * happens to this process afterwards.
 */
import { AUDIT_SCHEMA_VERSION, type AuditEntry } from "../src/audit/audit-entry.ts";
import { AuditWriter } from "../src/audit/audit-writer.ts";

const [file, writerId, lines, maxBytes, keep] = process.argv.slice(2);
if (file === undefined || writerId === undefined)
	throw new Error("usage: audit-writer-proc <file> <id> <lines>");
const writer = new AuditWriter({
	file,
	...(maxBytes ? { maxBytes: Number(maxBytes) } : {}),
	...(keep ? { keep: Number(keep) } : {}),
});
const count = Number(lines ?? 0);
// Lines of a realistic size (~700 bytes); until killed, in batches of 20 (one ~14 KiB write, as a busy session
// queues them), which cross 4 KiB pages where a kill can cut a write.
const padding = "p".repeat(400);
const batch = count === 0 ? 20 : 1;
for (let n = 0; count === 0 || n < count; n++) {
	const entry: AuditEntry = {
		v: AUDIT_SCHEMA_VERSION,
		time: new Date().toISOString(),
		sessionId: `bench-${writerId}`,
		event: "tool_call",
		origin: { kind: "headless" },
		tool: "bash",
		tier: "write",
		actionHash: "c".repeat(64),
		preview: `${writerId}:${n}:${padding}`,
		mode: "ask",
		outcome: "allow",
		source: { kind: "authorizer", link: "bench", verdict: "allow" },
		latencyMs: 1,
		configFiles: [],
	};
	if ((n + 1) % batch !== 0) {
		void writer.record(entry);
		continue;
	}
	writer.recordNow(entry);
	if (count === 0) process.stdout.write(`${Array.from({ length: batch }, (_, i) => n - i).join("\n")}\n`);
}
