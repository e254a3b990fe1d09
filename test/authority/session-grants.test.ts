import { afterEach, describe, expect, it } from "vitest";
import { SessionGrants } from "../../src/authority/session-grants.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";

type SessionGrantsModule = typeof import("../../src/authority/session-grants.ts");

function grant(id: string, pattern = `pattern-${id}`): SessionGrant {
	return {
		id,
		surface: "command",
		pattern,
		scope: "session",
		limit: { tier: "write", outsideCwd: false },
		grantedAt: "2025-06-01T00:00:00.000Z",
	};
}

const used: SessionGrants[] = [];
function session(id: string): SessionGrants {
	const grants = new SessionGrants(id);
	used.push(grants);
	return grants;
}

afterEach(() => {
	for (const grants of used.splice(0)) grants.clear();
});

describe("SessionGrants", () => {
	it("starts empty and lists grants in the order they were added", () => {
		const grants = session("s-order");
		expect(grants.list()).toEqual([]);
		grants.add([grant("a"), grant("b")]);
		grants.add([]);
		grants.add([grant("c")]);
		expect(grants.list().map((g) => g.id)).toEqual(["a", "b", "c"]);
	});

	it("is shared by every instance for the same session id (a /reload keeps them)", () => {
		session("s-shared").add([grant("a")]);
		expect(
			session("s-shared")
				.list()
				.map((g) => g.id),
		).toEqual(["a"]);
	});

	it("adding a grant it already holds (same id) changes nothing", () => {
		const grants = session("s-idempotent");
		const a = grant("a");
		grants.add([a]);
		grants.add([a, grant("b")]);
		expect(grants.list().map((g) => g.id)).toEqual(["a", "b"]);
	});

	it("keeps sessions apart", () => {
		session("s-one").add([grant("a")]);
		expect(session("s-two").list()).toEqual([]);
	});

	it("revoke removes one grant by id and says whether it found it", () => {
		const grants = session("s-revoke");
		grants.add([grant("a"), grant("b")]);
		expect(grants.revoke("a")).toBe(true);
		expect(grants.list().map((g) => g.id)).toEqual(["b"]);
		expect(grants.revoke("a")).toBe(false);
		expect(session("s-revoke-empty").revoke("nothing")).toBe(false);
	});

	it("clear drops every grant of that session only", () => {
		session("s-clear").add([grant("a")]);
		session("s-keep").add([grant("b")]);
		session("s-clear").clear();
		expect(session("s-clear").list()).toEqual([]);
		expect(
			session("s-keep")
				.list()
				.map((g) => g.id),
		).toEqual(["b"]);
	});

	it("a list taken earlier is not changed by later adds or revokes", () => {
		const grants = session("s-snapshot");
		grants.add([grant("a")]);
		const before = grants.list();
		grants.add([grant("b")]);
		grants.revoke("a");
		expect(before.map((g) => g.id)).toEqual(["a"]);
	});

	it("is process-wide: a separately loaded copy of the module sees the same grants", async () => {
		const specifier = "../../src/authority/session-grants.ts?copy=2";
		const copy: SessionGrantsModule = await import(specifier);
		expect(copy.SessionGrants).not.toBe(SessionGrants);
		session("s-copy").add([grant("a")]);
		const other = new copy.SessionGrants("s-copy");
		expect(other.list().map((g) => g.id)).toEqual(["a"]);
		other.revoke("a");
		expect(session("s-copy").list()).toEqual([]);
	});
});
