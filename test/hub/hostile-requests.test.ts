import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import {
	type InboxLayout,
	inboxLayout,
	MAX_INPUT_DEPTH,
	MAX_REQUEST_BYTES,
	newRequestId,
	requestFile,
} from "../../src/hub/protocol.ts";
import {
	makeRequest,
	PARENT_SESSION,
	readLog,
	serverCaughtUp,
	startServer,
	tempAgentDir,
	waitUntil,
} from "./hub-fixture.ts";

function plant(file: string, content: string): void {
	writeFileSync(`${file}.plant`, content);
	renameSync(`${file}.plant`, file);
}

/** Hostile request files by name and content. Every one must be logged, removed and never decided. */
function hostileFiles(dir: string): Record<string, string | { symlinkTo: string } | "fifo"> {
	const valid = (overrides = {}) => JSON.stringify(makeRequest(overrides));
	const mismatchId = newRequestId();
	const elsewhere = join(dir, "valid-elsewhere.json");
	const symlinkedId = newRequestId();
	writeFileSync(elsewhere, valid({ id: symlinkedId }));
	let deep = "1";
	for (let i = 0; i < MAX_INPUT_DEPTH + 5; i++) deep = `{"a":${deep}}`;
	const files: Record<string, string | { symlinkTo: string } | "fifo"> = {
		[`${newRequestId()}.json`]: "{ not json",
		[`${newRequestId()}.json`]: valid().slice(0, 200),
		[`${newRequestId()}.json`]: "",
		[`${newRequestId()}.json`]: JSON.stringify({ ...makeRequest(), protocol: "pi-permission-hub/2" }),
		[`${newRequestId()}.json`]: JSON.stringify({ ...makeRequest(), tier: "root" }),
		[`${newRequestId()}.json`]: "null",
		[`${newRequestId()}.json`]: "[]",
		[`${mismatchId}.json`]: valid(),
		[`${symlinkedId}.json`]: { symlinkTo: elsewhere },
		[`${newRequestId()}.json`]: { symlinkTo: "/dev/zero" },
		[`${newRequestId()}.json`]: "fifo",
		[`${newRequestId()}.json`]: `{"padding":"${"x".repeat(MAX_REQUEST_BYTES)}"}`,
		[`${newRequestId()}.json`]: valid().replace('"input":{"command":"rm -rf build"}', `"input":${deep}`),
		"..json": valid(),
		"x.json": valid(),
		[`${newRequestId().slice(0, 25)}.json`]: valid(),
		[`${newRequestId().toLowerCase()}.json`]: valid(),
		[`${newRequestId()}0.json`]: valid(),
		[`${newRequestId()}.JSON.json`]: valid(),
		[`..${newRequestId()}.json`]: valid(),
	};
	// The id inside does not match the name it was put under.
	const inside = files[`${mismatchId}.json`];
	if (typeof inside === "string")
		files[`${mismatchId}.json`] = inside.replace(/"id":"[^"]+"/, `"id":"${newRequestId()}"`);
	return files;
}

function placeAll(layout: InboxLayout, files: ReturnType<typeof hostileFiles>): void {
	for (const [name, content] of Object.entries(files)) {
		const file = join(layout.requests, name);
		if (content === "fifo") execFileSync("mkfifo", [file]);
		else if (typeof content === "object") symlinkSync(content.symlinkTo, file);
		else plant(file, content);
	}
}

async function expectAllRejected(layout: InboxLayout, logFile: string, names: string[]): Promise<void> {
	await waitUntil(
		"every hostile file removed",
		() => readdirSync(layout.requests).filter((n) => !n.endsWith(".plant")).length === 0,
	);
	await waitUntil("every hostile file logged", () => {
		const logged = readLog(logFile).filter((l) => l.event === "server.request_rejected");
		return names.every((name) =>
			logged.some(
				(l) => l.file === name || (typeof l.requestId === "string" && `${l.requestId}.json` === name),
			),
		);
	});
}

describe("hostile request files at the server", () => {
	it("arriving while it serves: nothing crashes, nothing is decided, each is logged and removed", async () => {
		const agentDir = tempAgentDir();
		const { layout, log, calls } = await startServer(agentDir);
		const files = hostileFiles(agentDir);
		placeAll(layout, files);
		await expectAllRejected(layout, log.file, Object.keys(files));
		expect(calls.size).toBe(0);
		expect(readdirSync(layout.responses)).toEqual([]);
		// The server still serves a real request afterwards.
		const outcome = await forwardAsk(
			{
				sessionId: PARENT_SESSION,
				inbox: layout.root,
				location: "same-process",
				pid: null,
				path: ["root"],
				via: "t",
			},
			makeRequest(),
			{ timeoutMs: 10_000, log },
		);
		expect(outcome.kind).toBe("answered");
		expect(calls.size).toBe(1);
		const reasons = readLog(log.file)
			.filter((l) => l.event === "server.request_rejected")
			.map((l) => String(l.reason));
		console.log(`hostile requests rejected (${reasons.length}):\n  ${[...new Set(reasons)].join("\n  ")}`);
	});

	it("already there when the server opens (reconcile listing): the same", async () => {
		const agentDir = tempAgentDir();
		const layout = inboxLayout(agentDir, PARENT_SESSION);
		// A previous server made the inbox; the files arrived while nobody served it.
		const first = await startServer(agentDir);
		await first.server.close();
		const files = hostileFiles(agentDir);
		placeAll(layout, files);
		const { log, calls } = await startServer(agentDir);
		await expectAllRejected(layout, log.file, Object.keys(files));
		expect(calls.size).toBe(0);
	});

	it("a directory named like a request is refused and logged, never decided", async () => {
		const agentDir = tempAgentDir();
		const { layout, log, calls } = await startServer(agentDir);
		const id = newRequestId();
		const dir = join(layout.requests, `${id}.json`);
		execFileSync("mkdir", [dir]);
		// chokidar reports directories as addDir: the listing at the next reconcile is what finds it.
		const second = await startServer(agentDir);
		await waitUntil("rejected", () =>
			readLog(log.file).some((l) => l.event === "server.request_rejected" && l.requestId === id),
		);
		expect(calls.size + second.calls.size).toBe(0);
		rmSync(dir, { recursive: true });
	});

	it("write-file-atomic temp files of children are left alone (they are not requests yet)", async () => {
		const agentDir = tempAgentDir();
		const server = await startServer(agentDir);
		const { layout, log, calls } = server;
		const temp = join(layout.requests, `${newRequestId()}.json.1234567890`);
		writeFileSync(temp, "{ half written");
		await serverCaughtUp(server);
		expect(existsSync(temp)).toBe(true);
		expect(calls.size).toBe(0);
		expect(readLog(log.file).filter((l) => l.event === "server.request_rejected")).toEqual([]);
	});

	it("a request file that vanishes before it is read is not an error", async () => {
		const agentDir = tempAgentDir();
		const server = await startServer(agentDir);
		const { layout, log, calls } = server;
		const request = makeRequest();
		for (let i = 0; i < 20; i++) {
			const file = requestFile(layout, newRequestId());
			plant(file, JSON.stringify(request));
			rmSync(file, { force: true });
		}
		await serverCaughtUp(server);
		expect(calls.size).toBe(0);
		expect(readLog(log.file).filter((l) => l.event === "server.handle_failed")).toEqual([]);
	});
});
