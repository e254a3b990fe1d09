import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ParkedStore } from "../../src/hub/parked-store.ts";
import { type ForwardRequest, MAX_REQUEST_BYTES, newRequestId } from "../../src/hub/protocol.ts";
import type { DecisionSource } from "../../src/provenance/decision-source.ts";
import { makeRequest, spawnChild, tempAgentDir, untilPast } from "./hub-fixture.ts";

function store(): { readonly store: ParkedStore; readonly dir: string; readonly base: string } {
	const base = tempAgentDir();
	const dir = join(base, "pi-permission-hub", "parked");
	return { store: new ParkedStore(dir, base), dir, base };
}

const soon = (ms: number) => new Date(Date.now() + ms).toISOString();

/** A human's answer at a dialog or with the CLI, as the parked store records it. */
function human(via: "dialog" | "cli", verdict: "allow" | "deny"): DecisionSource {
	return { kind: "user", via, verdict, scope: "once" };
}

describe("ParkedStore: park, entries, answer", () => {
	it("parks durably in a private directory and lists what is in force, oldest first", async () => {
		const { store: parked, dir } = store();
		const older = makeRequest({ id: newRequestId(Date.now() - 5000), unanswered: "defer" });
		const newer = makeRequest({ unanswered: "defer" });
		await parked.park(newer);
		await parked.park(older);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(statSync(join(dir, `${older.id}.request.json`)).mode & 0o777).toBe(0o600);
		expect(parked.entries().map((e) => e.request.id)).toEqual([older.id, newer.id]);
		expect(parked.entries().every((e) => e.answer === null)).toBe(true);
		expect(parked.request(older.id)).toEqual(older);
	});

	it("parking the same request again never extends its expiry, and may shorten it", async () => {
		const { store: parked } = store();
		const first = makeRequest({ unanswered: "defer", expiresAt: soon(60_000) });
		await parked.park(first);
		await parked.park({ ...first, expiresAt: soon(3_600_000) });
		expect(parked.request(first.id)?.expiresAt).toBe(first.expiresAt);
		const shorter = soon(30_000);
		await parked.park({ ...first, expiresAt: shorter });
		expect(parked.request(first.id)?.expiresAt).toBe(shorter);
	});

	it("the first answer wins; unknown, expired and already answered ones are refused with the right reason", async () => {
		const { store: parked } = store();
		const request = makeRequest({ unanswered: "defer" });
		const expired = makeRequest({ unanswered: "defer", expiresAt: new Date(Date.now() - 1).toISOString() });
		await parked.park(request);
		await parked.park(expired);
		const first = parked.answer(request.id, "allow", human("cli", "allow"), null, "ok from the CLI");
		expect(first).toMatchObject({
			ok: true,
			answer: {
				requestId: request.id,
				actionHash: request.actionHash,
				decision: "allow",
				source: human("cli", "allow"),
			},
		});
		expect(parked.answer(request.id, "deny", human("dialog", "deny"), "root")).toMatchObject({
			ok: false,
			reason: "answered",
		});
		expect(parked.answer(expired.id, "allow", human("cli", "allow"), null)).toMatchObject({
			ok: false,
			reason: "expired",
		});
		expect(parked.answer(newRequestId(), "allow", human("cli", "allow"), null)).toMatchObject({
			ok: false,
			reason: "unknown",
		});
		for (const trick of ["../../etc/passwd", "", `${request.id}/..`, request.id.toLowerCase()]) {
			expect(parked.answer(trick, "allow", human("cli", "allow"), null)).toMatchObject({
				ok: false,
				reason: "unknown",
			});
		}
		// The entry shows the first answer; the expired request is no longer listed.
		expect(parked.entries()).toEqual([{ request, answer: first.ok ? first.answer : null }]);
	});

	it("an approval lets exactly one identical action through; a denial lets none", async () => {
		const { store: parked } = store();
		const allowed = makeRequest({ unanswered: "defer" });
		const denied = makeRequest({ unanswered: "defer" });
		await parked.park(allowed);
		await parked.park(denied);
		expect(parked.find(allowed.actionHash)).toBeNull();
		parked.answer(allowed.id, "allow", human("dialog", "allow"), "root");
		parked.answer(denied.id, "deny", human("dialog", "deny"), "root");
		const approval = parked.find(allowed.actionHash);
		// The approval remembers which agents asked (adr/0022): an agents section limits who may use it.
		expect(approval).toEqual({
			requestId: allowed.id,
			actionHash: allowed.actionHash,
			approvedBy: human("dialog", "allow"),
			askerPath: allowed.path,
		});
		expect(parked.find(denied.actionHash)).toBeNull();
		expect(parked.find("0".repeat(64))).toBeNull();
		if (!approval) return;
		expect(parked.consume(approval)).toBe(true);
		expect(parked.consume(approval)).toBe(false);
		expect(parked.find(allowed.actionHash)).toBeNull();
		expect(parked.request(allowed.id)).toBeNull();
	});

	it("an approval stops working when its request expires, even if nothing in the directory changed", async () => {
		const { store: parked } = store();
		const request = makeRequest({ unanswered: "defer", expiresAt: soon(400) });
		await parked.park(request);
		parked.answer(request.id, "allow", human("cli", "allow"), null);
		expect(parked.find(request.actionHash)).not.toBeNull();
		await untilPast(request.expiresAt);
		expect(parked.find(request.actionHash)).toBeNull();
	});

	it("8 processes consuming the same approval at once: exactly one succeeds", async () => {
		const { store: parked, dir, base } = store();
		const request = makeRequest({ unanswered: "defer" });
		await parked.park(request);
		parked.answer(request.id, "allow", human("cli", "allow"), null);
		const go = join(base, "go");
		const children = Array.from({ length: 8 }, () =>
			spawnChild({ mode: "consume", dir, base, hash: request.actionHash, go }),
		);
		await Promise.all(children.map((c) => c.next((l) => l.event === "ready")));
		writeFileSync(go, "");
		const results = await Promise.all(children.map((c) => c.next((l) => l.event === "consumed")));
		const found = results.filter((r) => r.found === true).length;
		const consumed = results.filter((r) => r.consumed === true).length;
		console.log(`parked consume race: 8 processes, ${found} found the approval, ${consumed} consumed it`);
		expect(consumed).toBe(1);
		expect(readdirSync(dir)).toEqual([]);
	});

	it("sweep removes expired requests with their answers and answers without a request; keeps the rest", async () => {
		const { store: parked, dir } = store();
		const live = makeRequest({ unanswered: "defer" });
		const expired = makeRequest({ unanswered: "defer", expiresAt: soon(200) });
		await parked.park(live);
		await parked.park(expired);
		parked.answer(expired.id, "allow", human("cli", "allow"), null);
		const orphan = newRequestId();
		writeFileSync(join(dir, `${orphan}.answer.json`), "{}");
		expect(parked.sweep()).toBe(1);
		await untilPast(expired.expiresAt);
		expect(parked.sweep()).toBeGreaterThan(0);
		expect(readdirSync(dir)).toEqual([`${live.id}.request.json`]);
	});

	it("hostile files are ignored: symlinks, malformed or oversized files, forged answers, odd names", async () => {
		const { store: parked, dir, base } = store();
		const real = makeRequest({ unanswered: "defer" });
		await parked.park(real);
		// A symlinked request (its target is a valid, approved request elsewhere).
		const linked = makeRequest({ unanswered: "defer" });
		writeFileSync(join(base, "elsewhere.json"), JSON.stringify(linked));
		symlinkSync(join(base, "elsewhere.json"), join(dir, `${linked.id}.request.json`));
		writeFileSync(
			join(dir, `${linked.id}.answer.json`),
			JSON.stringify({
				requestId: linked.id,
				actionHash: linked.actionHash,
				decision: "allow",
				via: "cli",
				answeredAt: new Date().toISOString(),
				responderSessionId: null,
			}),
		);
		// A forged answer approving another action than the request it names.
		const forged = makeRequest({ unanswered: "defer" });
		await parked.park(forged);
		writeFileSync(
			join(dir, `${forged.id}.answer.json`),
			JSON.stringify({
				requestId: forged.id,
				actionHash: "e".repeat(64),
				decision: "allow",
				via: "cli",
				answeredAt: new Date().toISOString(),
				responderSessionId: null,
			}),
		);
		// Malformed, oversized, mismatched and oddly named files.
		const bad = newRequestId();
		writeFileSync(join(dir, `${bad}.request.json`), "{ not json");
		writeFileSync(join(dir, `${bad}.answer.json`), "[]");
		const big = makeRequest({ unanswered: "defer" });
		writeFileSync(
			join(dir, `${big.id}.request.json`),
			`${JSON.stringify(big)}${" ".repeat(MAX_REQUEST_BYTES)}`,
		);
		const mismatch = makeRequest({ unanswered: "defer" });
		writeFileSync(join(dir, `${newRequestId()}.request.json`), JSON.stringify(mismatch));
		for (const name of ["..request.json", "x.request.json", `${real.id.toLowerCase()}.request.json`]) {
			writeFileSync(join(dir, name), JSON.stringify(real));
		}
		// The forged answer is listed as what it is, never as waiting nor as an approval.
		expect(parked.entries().map((e) => [e.request.id, e.answer])).toEqual(
			[
				[real.id, null],
				[forged.id, { foreign: "action" }],
			].sort(),
		);
		expect(parked.find(linked.actionHash)).toBeNull();
		expect(parked.find("e".repeat(64))).toBeNull();
		expect(parked.find(forged.actionHash)).toBeNull();
		expect(parked.request(linked.id)).toBeNull();
		const again = parked.answer(forged.id, "allow", human("cli", "allow"), null);
		expect(again.ok ? "" : again.message).toBe(
			`parked request ${forged.id} has an answer for another action: ignored, never taken as an approval (and no other answer can be recorded while that file is there)`,
		);
		expect(parked.answer(linked.id, "allow", human("cli", "allow"), null)).toMatchObject({
			ok: false,
			reason: "unknown",
		});
	});
});

describe("what settled a parked ask (answer format 2)", () => {
	it("an answer a link gave is stored and used as the link's, never as a dialog's", async () => {
		const { store: parked, dir } = store();
		const request = makeRequest({ unanswered: "defer" });
		await parked.park(request);
		const link: DecisionSource = {
			kind: "forwarded",
			responderSessionId: "root-session",
			decision: { kind: "authorizer", link: "ci-bot", verdict: "allow", reason: "in the allow list" },
		};
		expect(parked.answer(request.id, "allow", link, "relay-session")).toMatchObject({ ok: true });
		const onDisk = JSON.parse(readFileSync(join(dir, `${request.id}.answer.json`), "utf8"));
		expect(onDisk).toMatchObject({ format: 2, source: link });
		expect(onDisk).not.toHaveProperty("via");
		expect(parked.entries()[0]?.answer).toMatchObject({ source: link });
		expect(parked.find(request.actionHash)).toMatchObject({ requestId: request.id, approvedBy: link });
	});

	it("a format 1 answer still reads as the human answer it claimed; an unknown format or surface is refused", async () => {
		const { store: parked, dir } = store();
		const written = (request: ForwardRequest, fields: Record<string, unknown>) =>
			writeFileSync(
				join(dir, `${request.id}.answer.json`),
				JSON.stringify({
					requestId: request.id,
					actionHash: request.actionHash,
					decision: "allow",
					answeredAt: new Date().toISOString(),
					responderSessionId: null,
					...fields,
				}),
			);
		const old = makeRequest({ unanswered: "defer" });
		const future = makeRequest({ unanswered: "defer" });
		const typed = makeRequest({ unanswered: "defer" });
		const noSource = makeRequest({ unanswered: "defer" });
		for (const r of [old, future, typed, noSource]) await parked.park(r);
		written(old, { via: "dialog" });
		written(future, { format: 3, source: human("cli", "allow") });
		// Format 1 could only say dialog or cli: nothing else is read from it.
		written(typed, { via: "typed" });
		written(noSource, { format: 2, source: { kind: "user", via: "email" } });
		expect(parked.find(old.actionHash)).toMatchObject({ approvedBy: human("dialog", "allow") });
		for (const r of [future, typed, noSource]) expect(parked.find(r.actionHash)).toBeNull();
	});

	it("an answer in a newer format is listed as answered by a newer version (never waiting, never an approval)", async () => {
		const { store: parked, dir } = store();
		const request = makeRequest({ unanswered: "defer" });
		await parked.park(request);
		// Whatever else a newer format holds, this version reads only the format.
		writeFileSync(
			join(dir, `${request.id}.answer.json`),
			JSON.stringify({ format: 3, verdict: { allow: true }, actionHash: request.actionHash }),
		);
		expect(parked.entries()).toEqual([{ request, answer: { newerFormat: 3 } }]);
		expect(parked.find(request.actionHash)).toBeNull();
		const again = parked.answer(request.id, "allow", human("cli", "allow"), null);
		expect(again).toMatchObject({ ok: false, reason: "answered" });
		expect(again.ok ? "" : again.message).toContain(
			`parked request ${request.id} was answered by a newer version of pi-permission-hub (answer format 3; this version reads format 2)`,
		);
	});
});

describe("an answer too large to be read back", () => {
	/** A link's deny whose reason (given twice: the answer's and its source's) escapes to 6 bytes a character. */
	const deny = (length: number) => {
		const reason = "\u0001".repeat(length);
		const source: DecisionSource = { kind: "authorizer", link: "verbose-link", verdict: "deny", reason };
		return { source, reason };
	};

	it("is refused, not written: the request stays waiting, and a shorter answer is still taken", async () => {
		const { store: parked, dir } = store();
		const request = makeRequest({ unanswered: "defer" });
		await parked.park(request);
		const big = deny(2000);
		const refused = parked.answer(request.id, "deny", big.source, "root", big.reason);
		expect(refused).toMatchObject({ ok: false, reason: "too_large" });
		expect(refused.ok ? "" : refused.message).toMatch(
			new RegExp(
				`^the answer to parked request ${request.id} was not recorded: .* more than the 16384 a parked answer may hold; the request stays parked`,
			),
		);
		expect(readdirSync(dir)).toEqual([`${request.id}.request.json`]);
		expect(parked.entries()).toEqual([{ request, answer: null }]);
		const small = deny(100);
		expect(parked.answer(request.id, "deny", small.source, "root", small.reason)).toMatchObject({ ok: true });
		expect(parked.entries()[0]?.answer).toMatchObject({ decision: "deny", source: small.source });
	});

	it("whatever answer() writes, entries() and find() read back, at every size around the limit", async () => {
		const { store: parked } = store();
		let written = 0;
		let refused = 0;
		for (let length = 1000; length <= 2000; length += 25) {
			const request = makeRequest({ unanswered: "defer" });
			await parked.park(request);
			const reason = "\u0001".repeat(length);
			const source: DecisionSource = { kind: "user", via: "cli", verdict: "allow", scope: "once", reason };
			const result = parked.answer(request.id, "allow", source, null, reason);
			if (!result.ok) {
				expect(result.reason).toBe("too_large");
				refused++;
				continue;
			}
			written++;
			expect(parked.find(request.actionHash)).toMatchObject({ requestId: request.id, approvedBy: source });
		}
		// Both sides of the limit were tried.
		expect([written > 0, refused > 0]).toEqual([true, true]);
	});
});
