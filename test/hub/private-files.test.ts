import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkPrivateDir, ensurePrivateDir, UnsafeDirectoryError } from "../../src/hub/private-files.ts";
import { tempAgentDir } from "./hub-fixture.ts";

const mode = (path: string): number => statSync(path).mode & 0o777;

describe("ensurePrivateDir", () => {
	it("creates every directory below the base as 0700, and accepts them again", () => {
		const base = tempAgentDir();
		const dir = join(base, "pi-permission-hub", "inbox", "s1", "requests");
		ensurePrivateDir(dir, base);
		for (const d of [join(base, "pi-permission-hub"), join(base, "pi-permission-hub", "inbox"), dir]) {
			expect(mode(d)).toBe(0o700);
		}
		expect(() => ensurePrivateDir(dir, base)).not.toThrow();
	});

	it("creates a missing base but does not judge it", () => {
		const base = join(tempAgentDir(), "agent");
		ensurePrivateDir(join(base, "hub"), base);
		expect(mode(join(base, "hub"))).toBe(0o700);
	});

	it("refuses a directory outside the base", () => {
		const base = tempAgentDir();
		expect(() => ensurePrivateDir(join(base, "..", "elsewhere"), base)).toThrow(UnsafeDirectoryError);
		expect(() => ensurePrivateDir("/tmp/elsewhere", base)).toThrow(UnsafeDirectoryError);
	});

	it("refuses a symlinked inbox, even one pointing at a private directory of ours", () => {
		const base = tempAgentDir();
		const real = join(base, "real");
		mkdirSync(real, { mode: 0o700 });
		mkdirSync(join(base, "hub"), { mode: 0o700 });
		symlinkSync(real, join(base, "hub", "inbox"));
		expect(() => ensurePrivateDir(join(base, "hub", "inbox", "requests"), base)).toThrow(/symbolic link/);
		// Nothing was created through the link.
		expect(() => statSync(join(real, "requests"))).toThrow();
	});

	it("refuses a group- or world-writable directory and does not repair it", () => {
		const base = tempAgentDir();
		for (const bad of [0o770, 0o707, 0o777, 0o720]) {
			const dir = join(base, `d${bad.toString(8)}`);
			mkdirSync(dir);
			chmodSync(dir, bad);
			expect(() => ensurePrivateDir(join(dir, "inner"), base)).toThrow(/writable by group or others/);
			expect(mode(dir)).toBe(bad);
		}
		// Readable by others but not writable is allowed (it is the user's umask, not a hole).
		const readable = join(base, "readable");
		mkdirSync(readable);
		chmodSync(readable, 0o755);
		expect(() => ensurePrivateDir(join(readable, "inner"), base)).not.toThrow();
	});

	it("refuses a file where a directory should be", () => {
		const base = tempAgentDir();
		writeFileSync(join(base, "hub"), "not a dir");
		expect(() => ensurePrivateDir(join(base, "hub", "inbox"), base)).toThrow(/not a directory/);
	});

	it("refuses a directory owned by another user (tested by chown to nobody when running as root)", () => {
		const base = tempAgentDir();
		const dir = join(base, "foreign");
		mkdirSync(dir, { mode: 0o700 });
		if (process.getuid?.() === 0) {
			chownSync(dir, 65534, 65534);
			expect(() => ensurePrivateDir(join(dir, "requests"), base)).toThrow(/belongs to uid 65534/);
			expect(() => checkPrivateDir(dir)).toThrow(UnsafeDirectoryError);
		} else {
			// As a normal user a foreign-owned directory cannot be made here; the owner check still passes ours.
			expect(() => checkPrivateDir(dir)).not.toThrow();
		}
	});
});
