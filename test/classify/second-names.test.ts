/**
 * `cp -l` and `cp -s` give a file a second name, and a later write in the same call goes through it: with no
 * sandbox running, accept-edits ran `cp -l .git/config x; cp c x` (two edits whose paths are all plain) and git's
 * config was the attacker's (adr/0014, adr/0023). Real coreutils and real files show the attack; the real
 * classifier must not count such a copy as an edit whose every effect is known.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import { askingEffect, permissionModeEffect } from "../../src/gate/permission-mode-step.ts";
import { createGuardedWorld, type GuardedWorld } from "./guarded-world.ts";

let world: GuardedWorld;
const PLANTED = "[core]\n\tfsmonitor = ./evil\n";

beforeEach(async () => {
	world = await createGuardedWorld("pph-names-");
	execFileSync("git", ["init", "-q", world.project]);
	writeFileSync(path.join(world.project, "c"), PLANTED);
});

afterEach(() => world.remove());

function acceptEdits(action: ClassifiedAction): string {
	const asking = action.parts
		.filter((part) => part.tier !== "read")
		.map((part) => askingEffect(action.tool, part, part.tier));
	const verdict = { kind: "ask", humanOnly: false, askRule: false, asking, contained: false } as const;
	return permissionModeEffect("accept-edits", action, verdict, "x").kind;
}

it.each(["cp -l .git/config x; cp c x", "cp -s .git/config x; cp c x", "cp -fl .git/config x; cp c x"])(
	"%s writes .git/config, and accept-edits does not run it unasked",
	(command) => {
		const copy = path.join(world.root, "copy");
		execFileSync("cp", ["-a", world.project, copy]);
		execFileSync("sh", ["-c", command], { cwd: copy });
		expect(readFileSync(path.join(copy, ".git", "config"), "utf8")).toBe(PLANTED);

		const action = world.classify({ tool: "bash", input: { command } });
		expect(
			action.parts.some((part) => part.knownEffects === true && /-[a-z]*[ls]/.test(part.command?.text ?? "")),
		).toBe(false);
		expect(acceptEdits(action)).toBe("none");
		expect(acceptEdits(world.classify({ tool: "bash", input: { command: "cp c x; cp c y" } }))).toBe("allow");
	},
);
