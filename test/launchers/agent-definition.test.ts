import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
	frontmatterList,
	parseAgentDefinition,
	parseAgentFrontmatter,
	scanAgentDirectory,
} from "../../src/launchers/agent-definition.ts";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

function agentFile(name: string, extra = ""): string {
	return `---\nname: ${name}\ndescription: test agent\n${extra}---\nYou work.\n`;
}

describe("agent frontmatter, read by pi-subagents' rules", () => {
	it("quoted values, block lists, literal and folded blocks; the last of a repeated key wins", () => {
		const fields = parseAgentFrontmatter(
			[
				"---",
				'name: "quoted"',
				"description: 'single'",
				"extensions:",
				"  - /a",
				"  - /b, /c",
				"tools: |",
				"  read",
				"",
				"  bash",
				"notes: >",
				"  one",
				"  two",
				"model: first",
				"model: second",
				"---",
				"body",
			].join("\n"),
		);
		expect(fields.get("name")).toBe("quoted");
		expect(fields.get("description")).toBe("single");
		expect(frontmatterList(fields.get("extensions"))).toEqual(["/a", "/b", "/c"]);
		expect(frontmatterList(fields.get("tools"))).toEqual(["read", "bash"]);
		// A folded block is one line: one list item, as in pi-subagents.
		expect(fields.get("notes")).toBe("one two");
		expect(fields.get("model")).toBe("second");
	});

	it("an empty `extensions:` is an empty list (the agent loads nothing); no frontmatter is no agent", () => {
		const empty = parseAgentDefinition("/a/x.md", agentFile("x", "extensions:\n"));
		expect(empty?.extensions).toEqual([]);
		expect(parseAgentDefinition("/a/y.md", agentFile("y"))?.extensions).toBeUndefined();
		expect(parseAgentDefinition("/a/z.md", "name: z\ndescription: d\n")).toBeNull();
		expect(parseAgentDefinition("/a/z.md", "---\nname: z\n")).toBeNull();
	});

	it("`./` and `../` entries of extensions and subagentOnlyExtensions are relative to the file; others stay as written", () => {
		const definition = parseAgentDefinition(
			"/agents/team/x.md",
			agentFile("x", "extensions: ./ext, ../up, npm:pkg, ~/h\nsubagentOnlyExtensions: ./only\n"),
		);
		expect(definition?.extensions).toEqual(["/agents/team/ext", "/agents/up", "npm:pkg", "~/h"]);
		expect(definition?.subagentOnlyExtensions).toEqual(["/agents/team/only"]);
	});
});

describe("scanning an agent directory as pi-subagents discovers agents", () => {
	it("recurses, skips chains, .agents/skills, and pruned directories (.git, node_modules, .pi, sync-backups, repositories, nested project roots)", () => {
		const world = launcherWorld();
		world.write("agents/top.md", agentFile("top"));
		world.write("agents/team/deep.md", agentFile("deep"));
		world.write("agents/flow.chain.md", agentFile("flow"));
		world.write("agents/notes.txt", agentFile("notes"));
		for (const pruned of [".git", "node_modules", ".pi", "sync-backups"]) {
			world.write(`agents/${pruned}/hidden.md`, agentFile(`in-${pruned}`));
		}
		world.write("agents/repo/.git/HEAD", "ref: refs/heads/main\n");
		world.write("agents/repo/in-repo.md", agentFile("in-repo"));
		world.write("agents/nested/.agents/x.md", agentFile("nested-agents"));
		world.write("agents/nested/in-nested.md", agentFile("in-nested"));
		world.write("agents/.agents/skills/skill.md", agentFile("a-skill"));
		world.link(path.join(world.root, "agents"), "agents/team/loop");
		const scan = scanAgentDirectory(path.join(world.root, "agents"), nodeFileView);
		expect(scan.complete).toBe(true);
		expect(scan.definitions.map((d) => d.names[0]).sort()).toEqual(["deep", "top"]);
		// Scanning a `.agents` directory itself: its skills/ is still not agents.
		world.write("home/.agents/skills/s.md", agentFile("s"));
		world.write("home/.agents/real.md", agentFile("real"));
		const home = scanAgentDirectory(path.join(world.home, ".agents"), nodeFileView);
		expect(home.definitions.map((d) => d.names[0])).toEqual(["real"]);
	});

	it("a directory too large to read in full, or an agent file too large to read, makes the scan incomplete", () => {
		const world = launcherWorld();
		world.write("many/a.md", agentFile("a"));
		for (let i = 0; i < 2001; i++) writeFileSync(path.join(world.root, "many", `n${i}.md`), "# notes\n");
		expect(scanAgentDirectory(path.join(world.root, "many"), nodeFileView).complete).toBe(false);
		const big = world.write("big/huge.md", agentFile("huge"));
		writeFileSync(big, `${agentFile("huge")}${"x".repeat(4 * 1024 * 1024)}`);
		const scan = scanAgentDirectory(path.join(world.root, "big"), nodeFileView);
		expect(scan).toEqual({ definitions: [], complete: false });
		expect(scanAgentDirectory(path.join(world.root, "none"), nodeFileView)).toEqual({
			definitions: [],
			complete: true,
		});
	});
});
