/**
 * An answer the root cannot write (its disk is full when the human answers): the child learns within its
 * liveness tick that nobody could answer — not after its whole timeout, and never as a denial — and the root is
 * told, to tell the human whose answer was lost. A real server and client, a real full tmpfs as `responses/`.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { forwardAsk } from "../../src/hub/hub-client.ts";
import { inboxLayout } from "../../src/hub/protocol.ts";
import { makeRequest, PARENT_SESSION, startServer, tempAgentDir } from "./hub-fixture.ts";

const mounts: string[] = [];
afterEach(() => {
	for (const mount of mounts.splice(0)) execFileSync("umount", ["--lazy", mount]);
});

describe("an answer that cannot be written", () => {
	it("the child hears 'unavailable' within 2 s, not at its 20 s timeout, and the server reports it", async () => {
		const agentDir = tempAgentDir();
		const layout = inboxLayout(agentDir, PARENT_SESSION);
		mkdirSync(layout.responses, { recursive: true, mode: 0o700 });
		execFileSync("mount", ["-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs", layout.responses]);
		mounts.push(layout.responses);
		const filler = join(layout.responses, "filler");
		for (let room = true; room; ) {
			try {
				appendFileSync(filler, "x".repeat(1024));
			} catch {
				room = false;
			}
		}
		const { target, log, undelivered } = await startServer(agentDir);
		const request = makeRequest();

		const started = performance.now();
		const outcome = await forwardAsk(target, request, { timeoutMs: 20_000, log });

		expect(performance.now() - started).toBeLessThan(2_500);
		expect(outcome).toMatchObject({ kind: "unavailable" });
		expect(undelivered).toEqual([expect.stringMatching(new RegExp(`^${request.id}: .*ENOSPC`))]);
	});
});
