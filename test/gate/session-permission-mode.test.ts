/**
 * Which permission mode a session is in (adr/0023) within what the managed layer allows (adr/0024), on real
 * policies built from config text: the chosen mode, else the user's `defaultMode`, clamped; the refusal of a
 * forbidden switch; and `--permission-mode` as given, with what the human is told.
 */
import { describe, expect, it } from "vitest";
import {
	permissionModeFromFlag,
	permissionModeRefusal,
	sessionPermissionMode,
} from "../../src/gate/session-permission-mode.ts";
import { policyFrom } from "../policy/fixtures.ts";

const json = (value: unknown): string => JSON.stringify(value);
const unmanaged = policyFrom(json({}));
const planDefault = policyFrom(json({ defaultMode: "plan" }));
const managed = (allowedModes: readonly string[], user: unknown = {}) =>
	policyFrom(json(user), null, json({ allowedModes }));

describe("the session's permission mode", () => {
	it("is the one chosen, else the user's defaultMode, else default", () => {
		expect(sessionPermissionMode(null, unmanaged)).toBe("default");
		expect(sessionPermissionMode(null, planDefault)).toBe("plan");
		expect(sessionPermissionMode("trusted", planDefault)).toBe("trusted");
	});

	it("gives way to default when the managed layer forbids it, else to the first mode it allows", () => {
		expect(sessionPermissionMode("trusted", managed(["default", "plan"]))).toBe("default");
		expect(sessionPermissionMode(null, managed(["plan", "default"], { defaultMode: "dont-ask" }))).toBe(
			"default",
		);
		expect(sessionPermissionMode("trusted", managed(["plan", "accept-edits"]))).toBe("plan");
		expect(sessionPermissionMode(null, managed(["plan", "accept-edits"]))).toBe("plan");
		expect(sessionPermissionMode("accept-edits", managed(["plan", "accept-edits"]))).toBe("accept-edits");
	});
});

describe("switching the mode", () => {
	it("is refused, saying what the managed config allows, only for a mode it forbids", () => {
		expect(permissionModeRefusal("trusted", unmanaged)).toBeNull();
		expect(permissionModeRefusal("plan", managed(["default", "plan"]))).toBeNull();
		expect(permissionModeRefusal("trusted", managed(["default", "plan"]))).toBe(
			"the managed config allows only default, plan",
		);
	});
});

describe("--permission-mode", () => {
	it("not given (or empty) chooses nothing: the config's defaultMode holds", () => {
		expect(permissionModeFromFlag(undefined, planDefault)).toEqual({ chosen: null, warning: null });
		expect(permissionModeFromFlag("", planDefault)).toEqual({ chosen: null, warning: null });
	});

	it("naming a mode chooses it, silently when it holds", () => {
		expect(permissionModeFromFlag("accept-edits", unmanaged)).toEqual({
			chosen: "accept-edits",
			warning: null,
		});
	});

	it("naming a mode the managed layer forbids says which mode the session is in instead", () => {
		const policy = managed(["default", "plan"]);
		const choice = permissionModeFromFlag("trusted", policy);
		expect(choice.chosen).toBe("trusted");
		expect(sessionPermissionMode(choice.chosen, policy)).toBe("default");
		expect(choice.warning).toBe(
			"pi-permission-hub: --permission-mode trusted is not allowed by the managed config; this session is in default mode.",
		);
	});

	it("naming no mode starts the session in plan, the narrowest, and says why", () => {
		for (const value of ["yolo", true] as const) {
			const choice = permissionModeFromFlag(value, unmanaged);
			expect(choice.chosen).toBe("plan");
			expect(choice.warning).toBe(
				`pi-permission-hub: --permission-mode ${String(value)} names no mode (default, plan, accept-edits, sandboxed, dont-ask, trusted); this session starts in plan mode instead.`,
			);
		}
	});
});
