import path from "node:path";
import { describe, expect, it } from "vitest";
import {
	isLocalSource,
	parsePackageSource,
	resolveSettingsPath,
} from "../../src/launchers/settings-paths.ts";

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
	});

	it("reads npm sources with scopes and versions, local paths, and remote sources", () => {
		expect(parsePackageSource("npm:pi-permission-hub")).toEqual({ kind: "npm", name: "pi-permission-hub" });
		expect(parsePackageSource("npm:pi-permission-hub@0.1.0")).toEqual({
			kind: "npm",
			name: "pi-permission-hub",
		});
		expect(parsePackageSource("npm:@acme/pph@^2")).toEqual({ kind: "npm", name: "@acme/pph" });
		expect(parsePackageSource("../../work/pph")).toEqual({ kind: "local", path: "../../work/pph" });
		expect(parsePackageSource("git:github.com/a/b")).toEqual({ kind: "other", source: "git:github.com/a/b" });
		expect(parsePackageSource("https://example.com/x.tgz").kind).toBe("other");
		expect(isLocalSource("builtin:mcp")).toBe(false);
		expect(isLocalSource("./ext.ts")).toBe(true);
	});
});
