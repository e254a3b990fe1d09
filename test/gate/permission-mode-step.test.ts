/**
 * The permission modes' rules as a pure function (adr/0023), on real classifications: mode × what a call does ×
 * whether a sandbox contains it → allow or leave to a human. Every part of a call asks here, as under the
 * built-in defaults for everything above `read`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ClassifiedAction, ToolCall } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import {
	askingEffect,
	type PolicyVerdict,
	permissionModeEffect,
} from "../../src/gate/permission-mode-step.ts";
import type { PermissionMode } from "../../src/vocabulary/permission-mode.ts";
import { bashParser, CWD, depsFor, HOME } from "../classify/classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const sh = (command: string): ToolCall => ({ tool: "bash", input: { command }, cwd: CWD });
const write = (path: string): ToolCall => ({ tool: "write", input: { path, content: "x" }, cwd: CWD });
const edit = (path: string): ToolCall => ({
	tool: "edit",
	input: { path, edits: [{ oldText: "a", newText: "b" }] },
	cwd: CWD,
});
/** Another extension's tool that declares annotations but no hint: `write`. */
const tool = (name: string): ToolCall => ({ tool: name, input: {}, cwd: CWD });

function classified(call: ToolCall): ClassifiedAction {
	return classifyAction(call, depsFor(bash, { toolAnnotations: () => ({}) }));
}

function askingVerdict(action: ClassifiedAction, contained: boolean): PolicyVerdict {
	return {
		kind: "ask",
		humanOnly: false,
		askRule: false,
		asking: action.parts
			.filter((part) => part.tier !== "read")
			.map((part) => askingEffect(action.tool, part, part.tier)),
		contained,
	};
}

type Answer = "allow" | "ask";

/** As the pipeline: only a bash call can be contained. */
function answer(mode: PermissionMode, call: ToolCall, sandbox: boolean): Answer {
	const action = classified(call);
	const contained = sandbox && call.tool === "bash";
	const effect = permissionModeEffect(mode, action, askingVerdict(action, contained), "this call");
	if (effect.kind === "deny") throw new Error(`${mode} refused ${JSON.stringify(call.input)}`);
	return effect.kind === "allow" ? "allow" : "ask";
}

/** [call, accept-edits, trusted with a sandbox running, trusted with none, sandboxed with one, sandboxed with none] */
const TABLE: readonly (readonly [string, ToolCall, Answer, Answer, Answer, Answer, Answer])[] = [
	// Writes whose every effect is known: accept-edits and trusted alike, sandbox or not.
	["write tool in the project", write("src/a.ts"), "allow", "allow", "allow", "allow", "allow"],
	["edit tool in the project", edit("src/a.ts"), "allow", "allow", "allow", "allow", "allow"],
	["touch", sh("touch notes.txt"), "allow", "allow", "allow", "allow", "allow"],
	["mkdir -p", sh("mkdir -p src/new/dir"), "allow", "allow", "allow", "allow", "allow"],
	["cp", sh("cp a.txt b.txt"), "allow", "allow", "allow", "allow", "allow"],
	["mv", sh("mv a.txt b.txt"), "allow", "allow", "allow", "allow", "allow"],
	["tee", sh("echo x | tee log.txt"), "allow", "allow", "allow", "allow", "allow"],
	["a redirect", sh("echo hi > out.txt"), "allow", "allow", "allow", "allow", "allow"],
	["sed -i substituting", sh("sed -i s/a/b/ src/x.ts"), "allow", "allow", "allow", "allow", "allow"],
	// Program runs: never accept-edits; trusted only inside the sandbox.
	["an unknown program", sh("python3 fmt.py"), "ask", "allow", "ask", "allow", "ask"],
	["make", sh("make"), "ask", "allow", "ask", "allow", "ask"],
	["a script run by node", sh("node scripts/gen.js"), "ask", "allow", "ask", "allow", "ask"],
	[
		"an interpreter behind a known wrapper",
		sh("timeout 5 python3 x.py"),
		"ask",
		"allow",
		"ask",
		"allow",
		"ask",
	],
	["a test runner", sh("npm test"), "ask", "allow", "ask", "allow", "ask"],
	["a known program beyond its paths", sh("git commit -m x"), "ask", "allow", "ask", "allow", "ask"],
	["sed running a command", sh("sed -i 'e touch x' f.txt"), "ask", "ask", "ask", "ask", "ask"],
	// Another name for a file: the next write to it (`cp c x` in the same call) writes .git/config.
	["cp -l", sh("cp -l .git/config x"), "ask", "allow", "ask", "allow", "ask"],
	["cp -s", sh("cp -s .git/config x"), "ask", "allow", "ask", "allow", "ask"],
	["cp --symbolic-link", sh("cp --symbolic-link src/a.ts x"), "ask", "allow", "ask", "allow", "ask"],
	// Unknown wrappers are programs: what they wrap does not make them an edit.
	["taskset around rm", sh("taskset -c 0 rm -rf src"), "ask", "allow", "ask", "allow", "ask"],
	["strace around rm", sh("strace -f rm -rf src"), "ask", "allow", "ask", "allow", "ask"],
	["unshare around git reset", sh("unshare -r git reset --hard"), "ask", "allow", "ask", "allow", "ask"],
	["parallel around rm", sh("parallel rm -rf ::: src"), "ask", "allow", "ask", "allow", "ask"],
	["gdb running a shell", sh("gdb -batch -ex '!rm -rf src'"), "ask", "allow", "ask", "allow", "ask"],
	["vim running a shell", sh("vim -c ':!rm -rf src' -c ':q'"), "ask", "allow", "ask", "allow", "ask"],
	["less running a shell", sh("less '+!rm -rf src' README.md"), "ask", "allow", "ask", "allow", "ask"],
	// Known effects beyond a write: trusted, not accept-edits.
	["rm", sh("rm -rf build"), "ask", "allow", "allow", "allow", "ask"],
	["git reset --hard", sh("git reset --hard"), "ask", "allow", "ask", "allow", "ask"],
	// Outside the project: no mode writes unasked (adr/0014).
	["touch outside the project", sh(`touch ${HOME}/elsewhere.txt`), "ask", "ask", "ask", "ask", "ask"],
	["write tool outside the project", write(`${HOME}/notes.txt`), "ask", "ask", "ask", "ask", "ask"],
	// The network: only trusted, and a program only in the sandbox.
	["a download", sh("curl -o page.html https://example.com"), "ask", "allow", "ask", "ask", "ask"],
	// Another extension's tool is not an edit.
	["another extension's tool", tool("deploy_preview"), "ask", "allow", "allow", "ask", "ask"],
];

describe("what each permission mode allows (adr/0023)", () => {
	for (const [
		name,
		call,
		acceptEdits,
		trustedContained,
		trustedBare,
		sandboxedContained,
		sandboxedBare,
	] of TABLE) {
		it(`${name}: accept-edits ${acceptEdits}, trusted ${trustedContained}/${trustedBare}, sandboxed ${sandboxedContained}/${sandboxedBare} (with/without a sandbox)`, () => {
			for (const contained of [true, false]) {
				expect(answer("accept-edits", call, contained), `accept-edits, contained ${contained}`).toBe(
					acceptEdits,
				);
				expect(answer("default", call, contained)).toBe("ask");
				expect(answer("dont-ask", call, contained)).toBe("ask");
			}
			expect(answer("trusted", call, true), "trusted, sandboxed").toBe(trustedContained);
			expect(answer("trusted", call, false), "trusted, no sandbox").toBe(trustedBare);
			expect(answer("sandboxed", call, true), "sandboxed, sandboxed").toBe(sandboxedContained);
			expect(answer("sandboxed", call, false), "sandboxed, no sandbox").toBe(sandboxedBare);
		});
	}

	it("a guarded path, an ask rule and a human-only ask are left to a human in every mode", () => {
		const guarded = classified(sh("python3 x.py >> ~/.bashrc"));
		for (const mode of ["accept-edits", "sandboxed", "trusted"] as const) {
			expect(permissionModeEffect(mode, guarded, askingVerdict(guarded, true), "x").kind).toBe("none");
			const touch = classified(sh("touch a.txt"));
			const verdict = askingVerdict(touch, true);
			if (verdict.kind !== "ask") throw new Error("an ask");
			expect(permissionModeEffect(mode, touch, { ...verdict, askRule: true }, "x").kind).toBe("none");
			expect(permissionModeEffect(mode, touch, { ...verdict, humanOnly: true }, "x").kind).toBe("none");
		}
	});

	it("says in one line why it left a program run to a human", () => {
		const action = classified(sh("touch a.txt && python3 fmt.py"));
		const accept = permissionModeEffect("accept-edits", action, askingVerdict(action, true), "x");
		expect(accept).toEqual({
			kind: "none",
			note: "accept-edits accepts edits, not program runs: `python3` runs a program",
		});
		const wrapped = classified(sh("timeout 5 python3 fmt.py"));
		expect(permissionModeEffect("accept-edits", wrapped, askingVerdict(wrapped, true), "x")).toMatchObject({
			note: "accept-edits accepts edits, not program runs: `timeout python3` runs a program",
		});
		const trusted = permissionModeEffect("trusted", action, askingVerdict(action, false), "x");
		expect(trusted).toEqual({
			kind: "none",
			note: "trusted runs programs unasked only inside the sandbox, and none contains this call: `python3` runs a program",
		});
		const other = classified(tool("deploy_preview"));
		expect(permissionModeEffect("accept-edits", other, askingVerdict(other, true), "x")).toMatchObject({
			note: "accept-edits accepts edits, not program runs: `deploy_preview` is another extension's tool, not a file edit",
		});
		const group = classified(sh("{ echo a; echo b; } > f.txt"));
		expect(permissionModeEffect("accept-edits", group, askingVerdict(group, true), "x")).toMatchObject({
			note: "accept-edits accepts edits, not program runs: part of the command is not a plain command (a redirected group, or code the gate cannot see into)",
		});
	});

	it("plan refuses everything above read, contained or not", () => {
		const action = classified(sh("touch a.txt"));
		expect(permissionModeEffect("plan", action, askingVerdict(action, true), "x").kind).toBe("deny");
	});
});
