import { beforeAll, describe, expect, it } from "vitest";
import { NobodyAuthorizer } from "../../src/authority/choose-terminal.ts";
import type { Parker } from "../../src/authority/local-dialog-authorizer.ts";
import type { Ask } from "../../src/authority/terminal-authorizer.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { bashParser } from "../classify/classify-fixture.ts";
import { askFor } from "./ask-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const WHY = "no UI and no parent session: nobody can be asked";

describe("NobodyAuthorizer", () => {
	it("is the `nobody` terminal kind", () => {
		expect(new NobodyAuthorizer(WHY, null).kind).toBe("nobody");
	});

	it.each(["wait", "deny"] as const)("refuses as unavailable under `%s`", async (unanswered) => {
		const decision = await new NobodyAuthorizer(WHY, null).decide(
			askFor(bash, "rm -rf build", { unanswered }),
		);
		expect(decision).toEqual({ outcome: "deny", source: { kind: "unavailable", reason: WHY } });
	});

	it("parks the ask under `defer` when it can", async () => {
		const parked: Ask[] = [];
		const park: Parker = async (ask) => {
			parked.push(ask);
			return { outcome: "parked", requestId: "req-1", source: { kind: "unavailable", reason: "parked" } };
		};
		const ask = askFor(bash, "rm -rf build", { unanswered: "defer" });
		expect(await new NobodyAuthorizer(WHY, park).decide(ask)).toMatchObject({
			outcome: "parked",
			requestId: "req-1",
		});
		expect(parked).toEqual([ask]);
	});

	it("refuses under `defer` when there is nowhere to park", async () => {
		const decision = await new NobodyAuthorizer(WHY, null).decide(
			askFor(bash, "rm -rf build", { unanswered: "defer" }),
		);
		expect(decision).toEqual({ outcome: "deny", source: { kind: "unavailable", reason: WHY } });
	});

	it("never parks under `wait` or `deny`, even with a parker", async () => {
		let calls = 0;
		const park: Parker = async () => {
			calls++;
			return { outcome: "parked", requestId: "x", source: { kind: "unavailable", reason: "parked" } };
		};
		for (const unanswered of ["wait", "deny"] as const) {
			const decision = await new NobodyAuthorizer(WHY, park).decide(
				askFor(bash, "rm -rf build", { unanswered }),
			);
			expect(decision.outcome).toBe("deny");
		}
		expect(calls).toBe(0);
	});
});
