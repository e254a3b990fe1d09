/**
 * `sessions` and `explain` over audit logs the real gate wrote: a human answering dialogs in RPC mode, a real
 * subagent whose ask was forwarded to that human, headless and CI print runs. Then the same lines torn, mixed
 * with garbage, rotated into generations, and grown past what memory could hold at once.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AuditEntry } from "../../src/audit/audit-entry.ts";
import { pickOption } from "../harness/dialog-policy.ts";
import { writeScript } from "../harness/faux-script.ts";
import { EXTENSION_ENTRY, FAUX_MODEL_EXTENSION, REPO_ROOT } from "../harness/paths.ts";
import { killAllRpc, startRpc } from "../harness/rpc-session.ts";
import { createSandbox, type Sandbox } from "../harness/sandbox.ts";
import {
	assertCliBuilt,
	auditLogPath,
	bash,
	cleanupCliSandboxes,
	cliSandbox,
	type Envelope,
	piRun,
	runCli,
	runCliJson,
	waitForAuditLines,
} from "./cli-support.ts";

const SUBAGENT_EXAMPLE = path.join(
	REPO_ROOT,
	"node_modules/@earendil-works/pi-coding-agent/examples/extensions/subagent/index.ts",
);

/** A line written by hand: the gate always records an origin, older or foreign lines may not. */
const NO_ORIGIN_LINE = JSON.stringify({
	v: 1,
	time: "2020-01-01T00:00:00.000Z",
	sessionId: "legacy-session",
	event: "tool_call",
	origin: null,
	tool: "read",
	tier: "read",
	actionHash: "f".repeat(64),
	preview: "read legacy.txt",
	mode: "auto",
	outcome: "allow",
	source: {
		kind: "rule",
		surface: "tier",
		pattern: "read",
		action: "auto",
		origin: { file: "built-in", jsonPath: "" },
	},
	latencyMs: 1,
	configFiles: [],
});

let world: Sandbox;
let log: string;
let realLines: string[];
let entries: AuditEntry[];

beforeAll(async () => {
	assertCliBuilt();
	world = await createSandbox();
	await world.writeWorkFile("victim.txt", "delegated delete");
	// The child pi the subagent tool spawns loads its extensions from settings, so it runs the gate too.
	await world.writeSettings({ extensions: [FAUX_MODEL_EXTENSION, EXTENSION_ENTRY] });
	await world.writeAgentFile(
		"agents/worker.md",
		"---\nname: worker\ndescription: test worker\nmodel: faux/faux-1\n---\nYou work.\n",
	);
	await writeScript(world, {
		conversations: [
			{ match: "CHILD-TASK", turns: [{ calls: [bash("rm -f victim.txt")] }, { echo: true }] },
			{
				turns: [
					{ calls: [{ tool: "subagent", input: { agent: "worker", task: "CHILD-TASK remove the victim" } }] },
					{ echo: true },
				],
			},
		],
	});
	const rpc = await startRpc({
		sandbox: world,
		extensions: [SUBAGENT_EXAMPLE],
		dialog: pickOption("Allow once"),
		timeoutMs: 30_000,
	});
	await rpc.prompt("delegate");
	await rpc.close();
	await killAllRpc();
	log = auditLogPath(world);
	await waitForAuditLines(log, 3);

	await world.writeSettings({});
	await world.writeWorkFile("victim.txt", "keep me");
	await piRun(world, [bash("ls"), bash("rm -f victim.txt")]);
	await piRun(world, [bash("ls")], { GITHUB_ACTIONS: "true" });
	await piRun(world, [bash("ls")], { CI: "1" });
	await waitForAuditLines(log, 7);
	writeFileSync(log, `${NO_ORIGIN_LINE}\n`, { flag: "a" });
	realLines = readFileSync(log, "utf8").split("\n").filter(Boolean);
	entries = await waitForAuditLines(log, 8);
}, 120_000);

afterAll(async () => {
	await killAllRpc();
	await world?.cleanup();
});
afterEach(cleanupCliSandboxes);

const groupSchema = z.object({
	kind: z.string(),
	name: z.string().nullable(),
	decisions: z.number(),
	sessions: z.number(),
	mode: z.record(z.string(), z.number()),
	outcome: z.record(z.string(), z.number()),
	decided_by: z.record(z.string(), z.number()),
	forwarded: z.number(),
	last_seen: z.string().nullable(),
});
const sessionsSchema = z.object({
	groups: z.array(groupSchema),
	group_count: z.number(),
	entries_read: z.number(),
	corrupt_lines: z.number(),
	log_files: z.array(
		z.object({ path: z.string(), status: z.string(), entries: z.number(), corrupt_lines: z.number() }),
	),
});
const explainSchema = z.object({
	match_count: z.number(),
	shown: z.number(),
	corrupt_lines: z.number(),
	matches: z.array(
		z.object({
			matched_on: z.string(),
			decided_by: z.string(),
			forwarding_hops: z.number(),
			source_text: z.string(),
			entry: z.object({
				time: z.string(),
				sessionId: z.string(),
				preview: z.string(),
				actionHash: z.string(),
			}),
		}),
	),
});

function sessionsOf(json: Envelope) {
	return sessionsSchema.parse(json);
}

describe("sessions", () => {
	it("groups the real origins by kind and name, sorted, with counts, deciders and an honest unknown group", async () => {
		const { code, json } = await runCliJson(world, ["sessions"]);
		expect(code).toBe(0);
		expect(json).toMatchObject({ command: "sessions", ok: true });
		const result = sessionsOf(json);
		expect(result.entries_read).toBe(8);
		expect(result.corrupt_lines).toBe(0);
		expect(result.groups.map((g) => [g.kind, g.name])).toEqual([
			["human", null],
			["subagent", "subagent"],
			["headless", null],
			["ci", null],
			["ci", "github-actions"],
			["unknown", null],
		]);
		const [human, subagent, headless, ciNone, github, unknown] = result.groups;
		// The root's human allowed the subagent tool at a dialog.
		expect(human).toMatchObject({
			decisions: 1,
			sessions: 1,
			outcome: { allow: 1 },
			decided_by: { user: 1 },
		});
		// The child's rm: decided at the root for the child (forwarded_ask), and recorded by the child with a
		// forwarded frame around the human's answer. Both lines belong to the one child session.
		expect(subagent).toMatchObject({
			decisions: 2,
			sessions: 1,
			mode: { ask: 2 },
			outcome: { allow: 2 },
			decided_by: { user: 2 },
			forwarded: 1,
		});
		expect(headless).toMatchObject({
			decisions: 2,
			mode: { auto: 1, ask: 1, deny: 0 },
			outcome: { allow: 1, deny: 0, pending: 1 },
			decided_by: { rule: 1, unavailable: 1 },
			forwarded: 0,
		});
		expect(ciNone).toMatchObject({ decisions: 1, mode: { auto: 1 } });
		expect(github).toMatchObject({ decisions: 1, mode: { auto: 1 } });
		expect(unknown).toMatchObject({ decisions: 1, sessions: 1, last_seen: "2020-01-01T00:00:00.000Z" });
		const newest = entries.filter((e) => e.origin?.kind === "headless").map((e) => e.time);
		expect(headless?.last_seen).toBe(newest.sort().at(-1));

		const text = await runCli(world, ["sessions"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(`8 decisions in 6 origin groups, from ${log}`);
		const order = [
			"  human",
			'  subagent "subagent"',
			"  headless",
			"  ci (no provider)",
			'  ci "github-actions"',
			"  unknown (no origin recorded)",
		];
		const positions = order.map((label) => text.stdout.indexOf(`\n${label}\n`));
		expect(positions.every((p) => p > 0)).toBe(true);
		expect([...positions].sort((a, b) => a - b)).toEqual(positions);
		expect(text.stdout).toContain("decided   user 2 (1 through a forwarding hop)");
	});

	it("a missing log is an empty result, not an error; an unreadable one is an I/O error (exit 2)", async () => {
		const sb = await cliSandbox();
		const { code, json } = await runCliJson(sb, ["sessions"]);
		expect(code).toBe(0);
		expect(sessionsOf(json)).toMatchObject({
			group_count: 0,
			groups: [],
			log_files: [{ status: "missing" }],
		});
		const text = await runCli(sb, ["sessions"]);
		expect(text.stdout).toContain("0 decisions in 0 origin groups, no audit log at");

		const dir = await runCliJson(sb, ["sessions", "--log", sb.workDir]);
		expect(dir.code).toBe(2);
		expect(dir.json).toMatchObject({ ok: false, error: { kind: "io" } });
		expect(dir.json.error?.message).toContain(`cannot read the audit log ${sb.workDir}`);
	});
});

describe("explain", () => {
	it("shows the full DecisionSource chain of a forwarded decision, newest first", async () => {
		const text = await runCli(world, ["explain", "victim"]);
		expect(text.code).toBe(0);
		expect(text.stdout).toMatch(/decided by: forwarded\([0-9a-f]{8}…\) → user\(dialog, allow once\)/);
		expect(text.stdout).toContain("decided by: unavailable(nobody answered; parked as request");

		const { json } = await runCliJson(world, ["explain", "victim"]);
		const result = explainSchema.parse(json);
		const times = result.matches.map((m) => Date.parse(m.entry.time));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		const forwarded = result.matches.find((m) => m.forwarding_hops === 1);
		expect(forwarded).toMatchObject({ decided_by: "user", matched_on: "preview" });
		expect(forwarded?.source_text).toMatch(/^forwarded\(.+\) → user\(dialog, allow once\)$/);
	});

	it("matches a session id exactly, an action hash by a prefix of 8+ hex digits, and the asker's path of names", async () => {
		const child = entries.find((e) => e.event === "tool_call" && e.origin?.kind === "subagent");
		if (!child) throw new Error("the real run recorded no subagent tool call");

		const bySession = explainSchema.parse((await runCliJson(world, ["explain", child.sessionId])).json);
		expect(bySession.matches.map((m) => m.matched_on)).toEqual(["session"]);
		expect(bySession.matches[0]?.entry.sessionId).toBe(child.sessionId);

		const prefix = child.actionHash.slice(0, 8).toUpperCase();
		const byHash = explainSchema.parse((await runCliJson(world, ["explain", prefix])).json);
		// The same rm in the same directory is the same action, whoever asked: the later headless run's too.
		expect(byHash.match_count).toBe(entries.filter((e) => e.actionHash === child.actionHash).length);
		expect(byHash.match_count).toBe(3);
		expect(byHash.matches.every((m) => m.entry.actionHash === child.actionHash)).toBe(true);
		expect(new Set(byHash.matches.map((m) => m.matched_on))).toEqual(new Set(["action_hash"]));
		const tooShort = await runCliJson(world, ["explain", child.actionHash.slice(0, 7)]);
		expect(tooShort.code).toBe(1);

		const byOrigin = explainSchema.parse((await runCliJson(world, ["explain", "GITHUB"])).json);
		expect(byOrigin.matches).toHaveLength(1);
		expect(byOrigin.matches[0]?.matched_on).toBe("origin");
		const byPath = explainSchema.parse((await runCliJson(world, ["explain", "root ← subagent"])).json);
		expect(byPath.match_count).toBe(2);
		// The help names what is matched as each line shows it: the asker's path of names (adr/0025).
		const help = await runCli(world, ["explain", "--help"]);
		expect(help.stdout).not.toContain("origin label");
		expect(help.stdout).toContain("path of names");
		expect((await runCli(world, ["explain", "root ← subagent"])).stdout).toMatch(/ {2}subagent root ← /);
	});

	it("caps with --limit, reports no match with exit code 1, and rejects a bad limit", async () => {
		const limited = explainSchema.parse((await runCliJson(world, ["explain", "ls", "--limit", "1"])).json);
		expect(limited.match_count).toBe(3);
		expect(limited.shown).toBe(1);
		const all = explainSchema.parse((await runCliJson(world, ["explain", "ls"])).json);
		expect(limited.matches[0]).toEqual(all.matches[0]);
		const text = await runCli(world, ["explain", "ls", "--limit", "1"]);
		expect(text.stdout).toContain('3 matches for "ls" (newest 1 shown; raise --limit for more)');

		const none = await runCli(world, ["explain", "no-such-thing-anywhere"]);
		expect(none.code).toBe(1);
		expect(none.stderr).toContain('no audit entry matches "no-such-thing-anywhere"');
		const noneJson = await runCliJson(world, ["explain", "no-such-thing-anywhere"]);
		expect(noneJson.json).toMatchObject({
			ok: false,
			error: { kind: "no_match" },
			match_count: 0,
			matches: [],
		});

		for (const bad of ["0", "-1", "two", "1.5"]) {
			const run = await runCliJson(world, ["explain", "ls", "--limit", bad]);
			expect(run.code).toBe(1);
			expect(run.json.error?.kind).toBe("usage");
		}
		expect((await runCliJson(world, ["explain", "  "])).json.error?.kind).toBe("usage");
	});
});

describe("damaged and large logs", () => {
	it("counts torn, garbage, schema-breaking and oversized lines, reports them and keeps going", async () => {
		const sb = await cliSandbox();
		const damaged = path.join(sb.root, "damaged.jsonl");
		const [first = "", second = "", ...rest] = realLines;
		const lines = [
			first,
			second.slice(0, Math.floor(second.length / 2)), // torn by a writer killed mid-append
			"this is not JSON",
			JSON.stringify({ v: 1, time: "now" }), // JSON, but not an audit entry
			`{"v":1,"preview":"${"x".repeat(2 * 1024 * 1024)}"}`, // past the 1 MiB line cap
			"",
			...rest.map((line, i) => (i === 0 ? `${line}\r` : line)), // a CRLF line is still a good line
		];
		writeFileSync(damaged, `${lines.join("\n")}\n`);

		const { code, json } = await runCliJson(sb, ["sessions", "--log", damaged]);
		expect(code).toBe(0);
		const result = sessionsOf(json);
		expect(result.corrupt_lines).toBe(4);
		expect(result.entries_read).toBe(realLines.length - 1);
		expect(result.log_files).toEqual([
			{ path: damaged, status: "read", entries: realLines.length - 1, corrupt_lines: 4 },
		]);
		const text = await runCli(sb, ["sessions", "--log", damaged]);
		expect(text.stdout).toContain("4 corrupt lines skipped");
		const explained = await runCliJson(sb, ["explain", "ls", "--log", damaged]);
		expect(explainSchema.parse(explained.json).corrupt_lines).toBe(4);
	});

	it("reads rotated generations oldest first, or only the file --log names", async () => {
		const sb = await cliSandbox();
		const dir = path.join(sb.agentDir, "pi-permission-hub");
		mkdirSync(dir, { recursive: true });
		const generations = [
			["audit.2.jsonl", realLines.slice(0, 3)],
			["audit.1.jsonl", realLines.slice(3, 6)],
			["audit.jsonl", realLines.slice(6)],
		] as const;
		for (const [name, lines] of generations) writeFileSync(path.join(dir, name), `${lines.join("\n")}\n`);
		writeFileSync(path.join(dir, "audit.x.jsonl"), "not a generation\n");

		const all = sessionsOf((await runCliJson(sb, ["sessions"])).json);
		expect(all.entries_read).toBe(realLines.length);
		expect(all.corrupt_lines).toBe(0);
		expect(all.log_files.map((f) => path.basename(f.path))).toEqual([
			"audit.2.jsonl",
			"audit.1.jsonl",
			"audit.jsonl",
		]);
		const direct = sessionsOf((await runCliJson(world, ["sessions"])).json);
		expect(all.groups).toEqual(direct.groups);

		const one = sessionsOf(
			(await runCliJson(sb, ["sessions", "--log", path.join(dir, "audit.1.jsonl")])).json,
		);
		expect(one.entries_read).toBe(3);
		expect(one.log_files).toHaveLength(1);
	});

	it("streams a log far larger than the heap it is allowed", async () => {
		const sb = await cliSandbox();
		const big = path.join(sb.root, "big.jsonl");
		const block = `${realLines.join("\n")}\n`;
		const copies = Math.ceil((40 * 1024 * 1024) / Buffer.byteLength(block));
		writeFileSync(big, block.repeat(copies));

		// 32 MiB of heap cannot hold 40 MiB of parsed entries: this passes only if lines are dropped once counted.
		const run = await runCli(sb, ["sessions", "--log", big, "--format", "json"], {
			nodeArgs: ["--max-old-space-size=32"],
		});
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const result = sessionsOf(JSON.parse(run.stdout));
		expect(result.entries_read).toBe(realLines.length * copies);
		const headless = result.groups.find((g) => g.kind === "headless");
		expect(headless?.decisions).toBe(2 * copies);
	}, 60_000);
});

describe("the default agent dir", () => {
	it("comes from PI_CODING_AGENT_DIR, and --agent-dir overrides it", async () => {
		const sb = await cliSandbox();
		copyFileSync(log, path.join(sb.root, "elsewhere.jsonl"));
		const viaEnv = sessionsOf((await runCliJson(world, ["sessions"])).json);
		expect(viaEnv.log_files.at(-1)?.path).toBe(log);
		const viaFlag = sessionsOf((await runCliJson(sb, ["sessions", "--agent-dir", world.agentDir])).json);
		expect(viaFlag.entries_read).toBe(viaEnv.entries_read);
		const empty = sessionsOf((await runCliJson(world, ["sessions", "--agent-dir", sb.agentDir])).json);
		expect(empty.entries_read).toBe(0);
	});
});

describe("a hostile file at the audit log's name", () => {
	it("a FIFO or a link makes sessions and explain fail at once with exit 2 and the reason, never hang", async () => {
		const sb = await cliSandbox();
		const file = auditLogPath(sb);
		mkdirSync(path.dirname(file), { recursive: true });
		execFileSync("mkfifo", [file]);
		for (const args of [["sessions"], ["explain", "some-session"]]) {
			const run = await runCli(sb, args);
			expect(run.code).toBe(2);
			expect(run.stderr).toContain(
				`cannot read the audit log ${file}: ${file} is a FIFO, not a regular file`,
			);
		}
		rmSync(file);
		symlinkSync(log, file);
		const linked = await runCli(sb, ["sessions"]);
		expect(linked.code).toBe(2);
		expect(linked.stderr).toContain(`cannot read the audit log ${file}`);
	});
});
