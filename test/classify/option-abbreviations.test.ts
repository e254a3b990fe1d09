/**
 * GNU getopt_long takes any unambiguous prefix of a long option: `cp --targ .git/hooks x` is
 * `cp --target-directory=.git/hooks x`, and `mv --b --su=D x HEA` backs `HEA` up as `HEAD`. Each attack here ran
 * with real coreutils against real files before the classifier read abbreviations: a git hook and a repository's
 * HEAD planted by a command a `write src/**` rule or accept-edits let through (adr/0014, adr/0023).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import { askingEffect, permissionModeEffect } from "../../src/gate/permission-mode-step.ts";
import { createGuardedWorld, type GuardedWorld, guardOf } from "./guarded-world.ts";

let world: GuardedWorld;

beforeEach(async () => {
	world = await createGuardedWorld("pph-abbrev-");
	writeFileSync(path.join(world.project, "src", "pre-commit"), "#!/bin/sh\nid > /tmp/owned\n", {
		mode: 0o755,
	});
});

afterEach(() => world.remove());

const run = (command: string): ClassifiedAction => world.classify({ tool: "bash", input: { command } });

/** What accept-edits makes of the call when every part above read asks (the built-in defaults). */
function acceptEdits(action: ClassifiedAction): string {
	const asking = action.parts
		.filter((part) => part.tier !== "read")
		.map((part) => askingEffect(action.tool, part, part.tier));
	const verdict = { kind: "ask", humanOnly: false, askRule: false, asking, contained: false } as const;
	return permissionModeEffect("accept-edits", action, verdict, "x").kind;
}

describe("an abbreviated long option is read as the option it abbreviates", () => {
	it.each([
		"cp --targ .git/hooks src/pre-commit",
		"cp --t=.git/hooks src/pre-commit",
		"mv --target=.git/hooks src/pre-commit",
		"mv --t .git/hooks src/pre-commit",
	])("%s writes into .git/hooks: human-only", (command) => {
		// What the command really does, in a copy of the world: the hook lands.
		const copy = path.join(world.root, "copy");
		execFileSync("cp", ["-a", world.project, copy]);
		execFileSync("sh", ["-c", command], { cwd: copy });
		expect(existsSync(path.join(copy, ".git", "hooks", "pre-commit"))).toBe(true);

		const action = run(command);
		expect([action.tier, guardOf(action)]).toEqual(["privileged", "human"]);
	});

	it("a backup asked for in abbreviations is not an edit whose effects are known", () => {
		mkdirSync(path.join(world.project, "pkg", "HEA"), { recursive: true });
		mkdirSync(path.join(world.project, "stage"));
		const command = "mv -T --b --su=D stage pkg/HEA";
		const copy = path.join(world.root, "copy");
		execFileSync("cp", ["-a", world.project, copy]);
		execFileSync("sh", ["-c", command], { cwd: copy });
		// The backup of pkg/HEA is pkg/HEAD: a name the paths found never said.
		expect(existsSync(path.join(copy, "pkg", "HEAD"))).toBe(true);

		for (const spelled of [command, "cp --ba=simple --suf=D -r stage pkg/HEA", "mv --backu stage pkg/x"]) {
			const action = run(spelled);
			expect(
				action.parts.some((part) => part.knownEffects === true),
				spelled,
			).toBe(false);
			expect(acceptEdits(action), spelled).toBe("none");
		}
	});

	it("options spelled in full keep their meaning, and plain copies stay edits", () => {
		expect(acceptEdits(run("cp -r --recursive src lib"))).toBe("allow");
		expect(acceptEdits(run("mv --no-target-directory src lib"))).toBe("allow");
		expect(acceptEdits(run("cp --target-directory=lib src/pre-commit"))).toBe("allow");
		expect(guardOf(run("mv --target-directory=.git/hooks src/pre-commit"))).toBe("human");
	});
});
