import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import {
	type ClassifyDeps,
	classifyAction,
	type ToolAnnotations,
} from "../../src/classify/classify-action.ts";
import type { Tier } from "../../src/vocabulary/tier.ts";
import { bashParser, CWD, depsFor } from "./classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

function classify(tool: string, input: Record<string, unknown>, overrides: Partial<ClassifyDeps> = {}) {
	return classifyAction({ tool, input, cwd: CWD }, depsFor(bash, overrides));
}

describe("pi's built-in tools", () => {
	it("bash: one part per command, tier of the strictest", () => {
		const action = classify("bash", { command: "ls && rm -rf build", timeout: 30 });
		expect(action.parts.map((part) => part.command?.text)).toEqual(["ls", "rm -rf build"]);
		expect(action.tier).toBe("destructive");
		expect(action.input).toEqual({ command: "ls && rm -rf build", timeout: 30 });
		expect(action.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(action.preview).toBe("ls && rm -rf build");
	});

	it("read, grep, find and ls are read with a read path (the cwd by default)", () => {
		expect(classify("read", { path: "src/a.ts", offset: 1, limit: 5 })).toMatchObject({
			tier: "read",
			parts: [{ paths: [{ access: "read", absolute: `${CWD}/src/a.ts`, outsideCwd: false }] }],
		});
		for (const [tool, input] of [
			["grep", { pattern: "x" }],
			["find", { pattern: "*.ts" }],
			["ls", {}],
		] as const) {
			const action = classify(tool, input);
			expect(action.tier, tool).toBe("read");
			expect(action.parts[0]?.paths[0]?.absolute, tool).toBe(CWD);
		}
		expect(classify("grep", { pattern: "x", path: "/etc" }).parts[0]?.paths[0]?.outsideCwd).toBe(true);
	});

	it("write and edit are write, privileged under a system directory", () => {
		expect(classify("write", { path: "out.txt", content: "x" }).tier).toBe("write");
		expect(classify("edit", { path: "a.ts", edits: [{ oldText: "a", newText: "b" }] }).tier).toBe("write");
		const system = classify("write", { path: "/etc/cron.d/job", content: "x" });
		expect(system.tier).toBe("privileged");
		expect(system.parts[0]?.tierReason).toMatch(/system directory/);
		expect(classify("edit", { path: "@/usr/lib/x", edits: [{ oldText: "a", newText: "b" }] }).tier).toBe(
			"privileged",
		);
	});

	it("an unknown input shape takes the highest tier", () => {
		for (const [tool, input] of [
			["bash", {}],
			["bash", { command: 42 }],
			["bash", { command: "ls", timeout: "soon" }],
			["read", { file: "x" }],
			["write", { path: "x" }],
			["edit", { path: "x", edits: [] }],
			["edit", { path: "x", edits: [{ oldText: "a" }] }],
			["grep", { path: "x" }],
			["ls", { path: 3 }],
		] as const) {
			const action = classify(tool, input);
			expect(action.tier, `${tool} ${JSON.stringify(input)}`).toBe("privileged");
			expect(action.parts[0]?.tierReason).toMatch(/shape/);
		}
	});

	it("extra input fields are tolerated (pi's tools ignore them) but covered by the hash", () => {
		const plain = classify("bash", { command: "ls" });
		const extra = classify("bash", { command: "ls", description: "list" });
		expect(extra.tier).toBe("read");
		expect(extra.hash).not.toBe(plain.hash);
	});

	it("an empty or NUL path is the highest tier", () => {
		expect(classify("read", { path: "" }).tier).toBe("privileged");
		expect(classify("write", { path: "a\0b", content: "" }).tier).toBe("privileged");
	});

	it("toolTiers can raise a built-in tool but not lower it", () => {
		expect(classify("read", { path: "x" }, { toolTiers: { read: "write" } }).tier).toBe("write");
		expect(classify("bash", { command: "rm x" }, { toolTiers: { bash: "read" } }).tier).toBe("destructive");
	});
});

describe("other tools", () => {
	const annotated = (annotations: ToolAnnotations | undefined) => ({ toolAnnotations: () => annotations });

	it("take the configured tier first", () => {
		const action = classify(
			"mcp_search",
			{ q: "x" },
			{ toolTiers: { mcp_search: "read" }, ...annotated({ destructiveHint: true }) },
		);
		expect(action.tier).toBe("read");
		expect(action.parts[0]?.tierReason).toMatch(/config/);
	});

	it("then their annotations, strictest hint first", () => {
		expect(classify("t", {}, annotated({ readOnlyHint: true })).tier).toBe("read");
		expect(classify("t", {}, annotated({ destructiveHint: true })).tier).toBe("destructive");
		expect(classify("t", {}, annotated({ openWorldHint: true })).tier).toBe("network-egress");
		expect(classify("t", {}, annotated({ readOnlyHint: true, openWorldHint: true })).tier).toBe(
			"network-egress",
		);
		expect(classify("t", {}, annotated({ idempotentHint: true })).tier).toBe("write");
		expect(classify("t", {}, annotated({})).tier).toBe("write");
	});

	it("are the highest tier when nothing is known, or when reading annotations fails", () => {
		expect(classify("mystery", {}).tier).toBe("privileged");
		const throwing = {
			toolAnnotations: (): ToolAnnotations | undefined => {
				throw new Error("registry unavailable");
			},
		};
		expect(classify("mystery", {}, throwing).tier).toBe("privileged");
		expect(classify("constructor", {}).tier).toBe("privileged");
	});

	it("turn path-like fields into path touches (write when above read)", () => {
		const action = classify(
			"fs_tool",
			{ path: "a", file_path: "/etc/b", filePath: "~/c", paths: ["d", 5, "e"], other: "/x" },
			annotated({ readOnlyHint: true }),
		);
		expect(action.parts[0]?.paths.map((p) => `${p.access} ${p.typed}`)).toEqual([
			"read a",
			"read /etc/b",
			"read ~/c",
			"read d",
			"read e",
		]);
		const writing = classify("fs_tool", { path: "/etc/b" }, annotated({}));
		expect(writing.parts[0]?.paths[0]?.access).toBe("write");
		expect(writing.tier).toBe("privileged");
	});

	it("a delegation whose children are gated is spend; ungated, or when it cannot be told, the highest tier", () => {
		const call = { agent: "cleaner", task: "tidy" };
		const gated = classify("subagent", call, {
			delegation: () => ({ launcher: "pi-subagents", gated: true, uncontained: null }),
		});
		expect(gated.tier).toBe("spend");
		expect(gated.parts[0]?.tierReason).toContain(
			"starts subagents through pi-subagents, each gated on its own",
		);
		const ungated = classify("subagent", call, {
			delegation: () => ({ launcher: "pi-subagents", gated: false, uncontained: null }),
		});
		expect(ungated.tier).toBe("privileged");
		const failing = classify("subagent", call, {
			delegation: () => {
				throw new Error("settings unreadable");
			},
		});
		expect(failing.tier).toBe("privileged");
		expect(classify("subagent", call).tier).toBe("privileged");
		// The operator's tier for the tool still decides first.
		const configured = classify("subagent", call, {
			toolTiers: { subagent: "destructive" },
			delegation: () => ({ launcher: "pi-subagents", gated: true, uncontained: null }),
		});
		expect(configured.tier).toBe("destructive");
	});

	it("a delegation whose children load code the project names is privileged and for a human alone, whatever the operator's tier", () => {
		const call = { subagent_type: "digger", prompt: "dig" };
		const uncontained =
			'it loads the extension "./tools/x.ts" (/w/tools/x.ts), named in /w/.agents/agents/digger.md';
		for (const toolTiers of [{}, { Agent: "spend" }] as Record<string, Tier>[]) {
			const action = classify("Agent", call, {
				toolTiers,
				delegation: () => ({ launcher: "@tintinweb/pi-subagents", gated: true, uncontained }),
			});
			expect(action.tier).toBe("privileged");
			expect(action.parts[0]?.guard).toEqual({
				kind: "human",
				reason: expect.stringContaining("./tools/x.ts"),
			});
		}
	});

	it("an invalid configured tier fails closed", () => {
		const toolTiers: Record<string, Tier> = { ...JSON.parse('{"weird": "harmless"}') };
		expect(classify("weird", {}, { toolTiers }).tier).toBe("privileged");
	});
});
