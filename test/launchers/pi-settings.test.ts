import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFileView } from "../../src/launchers/file-view.ts";
import {
	agentOverridesOf,
	classifySource,
	extensionSelection,
	isSettingsPattern,
	mayExclude,
	packageIdentity,
	packageLocation,
	readPiSettings,
	resolveSettingsPath,
} from "../../src/launchers/pi-settings.ts";
import { cleanupWorlds, launcherWorld } from "./launcher-world.ts";

afterEach(cleanupWorlds);

describe("reading a pi settings file", () => {
	it("missing, loaded (a byte-order mark ignored, the text kept), or invalid with the reason", () => {
		const world = launcherWorld();
		const file = path.join(world.agentDir, "settings.json");
		expect(readPiSettings(file, nodeFileView)).toEqual({ state: "missing", file });
		const text = '\uFEFF{ "packages": ["npm:x"], "theme": "dark" }';
		world.write("agent/settings.json", text);
		expect(readPiSettings(file, nodeFileView)).toEqual({
			state: "loaded",
			file,
			text,
			keys: { packages: ["npm:x"], theme: "dark" },
		});
		const invalid = (content: string) => {
			world.write("agent/settings.json", content);
			const read = readPiSettings(file, nodeFileView);
			return read.state === "invalid" ? read.problem : `not invalid: ${read.state}`;
		};
		expect(invalid("{ nope")).toMatch(/^is not valid JSON: /);
		expect(invalid("[1]")).toBe("is not a JSON object");
		expect(invalid('{ "subagents": { "defaultExtensions": "x" } }')).toMatch(
			/^has an invalid "subagents.defaultExtensions": /,
		);
		expect(invalid('{ "subagents": { "defaultExtensions": [" "] } }')).toContain("must not be empty");
		expect(invalid('{ "packages": [{ "source": "x", "autoload": "no" }] }')).toMatch(
			/^has an invalid "packages.0/,
		);
		expect(invalid('{ "subagents": { "agentOverrides": { "a": { "tools": "all" } } } }')).toMatch(
			/^has an invalid "subagents.agentOverrides.a.tools"/,
		);
	});

	it("something there that is not a readable file is invalid, not missing", () => {
		const world = launcherWorld();
		const file = path.join(world.agentDir, "settings.json");
		mkdirSync(file);
		expect(readPiSettings(file, nodeFileView)).toEqual({
			state: "invalid",
			file,
			problem: "is not a regular file",
		});
	});

	it("which extensions a packages entry loads, and every agent override with its JSON path", () => {
		expect(extensionSelection("npm:x")).toBe("all");
		expect(extensionSelection({ source: "x", skills: [] })).toBe("all");
		expect(extensionSelection({ source: "x", extensions: [] })).toBe("none");
		expect(extensionSelection({ source: "x", autoload: false })).toBe("none");
		expect(extensionSelection({ source: "x", autoload: false, extensions: [] })).toBe("none");
		expect(extensionSelection({ source: "x", extensions: ["dist/*.js"] })).toBe("patterns");
		expect(extensionSelection({ source: "x", autoload: false, extensions: ["a.js"] })).toBe("patterns");
		expect(
			agentOverridesOf({
				subagents: {
					agentOverrides: { a: { extensions: false } },
					agentOverridesByProvider: { faux: { b: { subagentOnlyExtensions: ["/x"] } } },
				},
			}),
		).toEqual([
			{
				agent: "a",
				override: { extensions: false },
				jsonPath: "subagents.agentOverrides.a",
				byProvider: false,
			},
			{
				agent: "b",
				override: { subagentOnlyExtensions: ["/x"] },
				jsonPath: "subagents.agentOverridesByProvider.faux.b",
				byProvider: true,
			},
		]);
	});
});

describe("paths and sources in pi settings", () => {
	const home = "/home/u";
	const base = "/home/u/.pi/agent";

	it("expands ~ and ~/ under the home dir, keeps absolute paths, and resolves relative ones against the base", () => {
		expect(resolveSettingsPath("~", home, home)).toBe(home);
		expect(resolveSettingsPath("~/pkgs/pph", base, home)).toBe("/home/u/pkgs/pph");
		expect(resolveSettingsPath("/opt/pph/", base, home)).toBe("/opt/pph");
		expect(resolveSettingsPath("../../src/pph", base, home)).toBe("/home/u/src/pph");
		expect(resolveSettingsPath("  npm/node_modules/x  ", base, home)).toBe(
			path.join(base, "npm/node_modules/x"),
		);
		expect(resolveSettingsPath("file:///opt/pph", base, home)).toBe("/opt/pph");
		// `~user/…` is not a home shorthand for pi: it is a relative name.
		expect(resolveSettingsPath("~other/x", base, home)).toBe(path.join(base, "~other/x"));
		// A file URL pi cannot read stays a (relative) name rather than throwing.
		expect(resolveSettingsPath("file://host/x", base, home)).toBe(path.join(base, "file:/host/x"));
	});

	it("reads npm sources with scopes and versions, git sources, built-ins, and local paths (anchored or not)", () => {
		expect(classifySource("npm:pi-permission-hub", base, home)).toEqual({
			kind: "npm",
			name: "pi-permission-hub",
		});
		expect(classifySource("npm:pi-permission-hub@0.1.0", base, home)).toEqual({
			kind: "npm",
			name: "pi-permission-hub",
		});
		expect(classifySource(" npm:@acme/pph@^2", base, home)).toEqual({ kind: "npm", name: "@acme/pph" });
		const git = (host: string) => ({ kind: "git", host, repoPath: "a/b" });
		expect(classifySource("git:github.com/a/b@v1", base, home)).toEqual(git("github.com"));
		expect(classifySource("git:git@github.com:a/b.git", base, home)).toEqual(git("github.com"));
		expect(classifySource("https://gitlab.com/a/b", base, home)).toEqual(git("gitlab.com"));
		// Without a prefix or a URL scheme pi reads it as a local path.
		expect(classifySource("git@github.com:a/b.git", base, home)).toMatchObject({ kind: "path" });
		expect(classifySource("builtin:mcp", base, home)).toEqual({ kind: "builtin" });
		expect(classifySource("../../work/pph", base, home)).toEqual({
			kind: "path",
			path: "/home/u/work/pph",
			anchored: false,
		});
		expect(classifySource("~/pph", base, home)).toEqual({
			kind: "path",
			path: "/home/u/pph",
			anchored: true,
		});
		expect(classifySource("/opt/pph", base, home)).toEqual({
			kind: "path",
			path: "/opt/pph",
			anchored: true,
		});
		// pi falls back to a relative path for a remote-looking source it cannot read as a repository.
		expect(classifySource("github:a/b", base, home)).toEqual({
			kind: "path",
			path: path.join(base, "github:a/b"),
			anchored: false,
		});
	});

	it("where pi keeps a package of a scope, and which entries are the same package", () => {
		const project = "/work/p/.pi";
		expect(packageLocation(classifySource("npm:@acme/pph@1", base, home), base)).toBe(
			path.join(base, "npm", "node_modules", "@acme", "pph"),
		);
		expect(packageLocation(classifySource("npm:pph", project, home), project)).toBe(
			path.join(project, "npm", "node_modules", "pph"),
		);
		expect(packageLocation(classifySource("git:github.com/a/b", base, home), base)).toBe(
			path.join(base, "git", "github.com", "a", "b"),
		);
		expect(packageLocation(classifySource("./pkgs/pph", project, home), project)).toBe(
			path.join(project, "pkgs", "pph"),
		);
		expect(packageLocation({ kind: "builtin" }, base)).toBeNull();
		expect(packageIdentity(classifySource("npm:pph@1", base, home))).toBe(
			packageIdentity(classifySource("npm:pph@2", project, home)),
		);
		expect(packageIdentity(classifySource("git:github.com/a/b", base, home))).toBe(
			packageIdentity(classifySource("https://github.com/a/b.git", project, home)),
		);
		expect(packageIdentity(classifySource("../x", base, home))).not.toBe(
			packageIdentity(classifySource("../x", project, home)),
		);
	});

	it("patterns in an `extensions` list: everything but a `+` may switch entries off", () => {
		for (const entry of ["!**/index.js", "-/opt/pph/dist/index.js", " +x", "*.ts", "ext/?.js"]) {
			expect(isSettingsPattern(entry), entry).toBe(true);
		}
		expect(isSettingsPattern("/opt/pph")).toBe(false);
		expect(mayExclude("+/opt/pph/dist/index.js")).toBe(false);
		expect(mayExclude("  !x")).toBe(true);
		expect(mayExclude("ext/*.js")).toBe(true);
	});
});
