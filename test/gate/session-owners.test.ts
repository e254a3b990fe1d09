import { describe, expect, it } from "vitest";
import { claimSession, gatedByAnother, releaseSession } from "../../src/gate/session-owners.ts";

function live(): { alive(): boolean } {
	return { alive: () => true };
}

describe("session owners: one gating copy per session id", () => {
	it("the first copy to claim a session gates it; a second copy stays passive", () => {
		const first = live();
		const second = live();
		expect(claimSession("s-claim", first)).toBe(true);
		expect(claimSession("s-claim", first)).toBe(true);
		expect(claimSession("s-claim", second)).toBe(false);
		expect(gatedByAnother("s-claim", second)).toBe(true);
		expect(gatedByAnother("s-claim", first)).toBe(false);
		releaseSession("s-claim", first);
	});

	it("only the owner's release frees the session; then no copy gates it until one claims it again", () => {
		const owner = live();
		const passive = live();
		claimSession("s-release", owner);
		releaseSession("s-release", passive);
		expect(gatedByAnother("s-release", passive)).toBe(true);
		releaseSession("s-release", owner);
		expect(gatedByAnother("s-release", passive)).toBe(false);
		expect(claimSession("s-release", passive)).toBe(true);
		releaseSession("s-release", passive);
	});

	it("sessions are claimed independently (in-process children have their own ids)", () => {
		const copy = live();
		const other = live();
		expect(claimSession("s-root", copy)).toBe(true);
		expect(claimSession("s-child", other)).toBe(true);
		expect(gatedByAnother("s-child", copy)).toBe(true);
		releaseSession("s-root", copy);
		releaseSession("s-child", other);
	});

	it("an owner pi no longer runs does not keep the session: another copy claims it", () => {
		let ownerAlive = true;
		const owner = { alive: () => ownerAlive };
		const passive = live();
		expect(claimSession("s-stale", owner)).toBe(true);
		expect(claimSession("s-stale", passive)).toBe(false);
		ownerAlive = false;
		expect(gatedByAnother("s-stale", passive)).toBe(false);
		expect(claimSession("s-stale", passive)).toBe(true);
		releaseSession("s-stale", passive);
	});
});
