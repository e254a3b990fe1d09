import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { actionHash, canonicalJson, normalizeBashCommand } from "../../src/classify/action-hash.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { classifyAction } from "../../src/classify/classify-action.ts";
import { bashParser, CWD, depsFor } from "./classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

describe("canonicalJson", () => {
	it("sorts keys recursively, keeps array order, drops undefined members, adds no whitespace", () => {
		expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 1, y: undefined }], c: "x" }, u: undefined })).toBe(
			'{"a":{"c":"x","d":[3,1,{"z":1}]},"b":1}',
		);
		expect(canonicalJson([undefined, null, Number.NaN, "é\u2028"])).toBe('[null,null,null,"é\u2028"]');
	});

	it("is independent of key order and of the JSON's whitespace", () => {
		const a = JSON.parse('{"tool":"x","input":{"b":[1,2],"a":{"y":true,"x":null}}}');
		const b = JSON.parse(
			'{\n  "input": { "a": { "x": null,   "y": true }, "b": [ 1, 2 ] },\n  "tool": "x"\n}',
		);
		expect(canonicalJson(a)).toBe(canonicalJson(b));
	});

	it("refuses what JSON cannot carry faithfully", () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
		expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
		let deep: unknown = 1;
		for (let i = 0; i < 500; i++) deep = [deep];
		expect(() => canonicalJson(deep)).toThrow(/deeper/);
	});
});

describe("actionHash", () => {
	it("is the SHA-256 of the canonical {tool, input, cwd, tier}", () => {
		const action = { tool: "read", input: { path: "a" }, cwd: "/w", tier: "read" as const };
		const expected = createHash("sha256")
			.update('{"cwd":"/w","input":{"path":"a"},"tier":"read","tool":"read"}')
			.digest("hex");
		expect(actionHash(action)).toBe(expected);
	});

	it("changes with the tool, the input, the cwd and the tier", () => {
		const base = { tool: "read", input: { path: "a" }, cwd: "/w", tier: "read" as const };
		const hashes = new Set([
			actionHash(base),
			actionHash({ ...base, tool: "write" }),
			actionHash({ ...base, input: { path: "b" } }),
			actionHash({ ...base, cwd: "/v" }),
			actionHash({ ...base, tier: "write" }),
		]);
		expect(hashes.size).toBe(5);
	});
});

describe("bash commands in the hash", () => {
	const hashOf = (command: string, cwd = CWD) =>
		classifyAction({ tool: "bash", input: { command }, cwd }, depsFor(bash)).hash;

	it("collapses unquoted blanks and trims", () => {
		expect(hashOf("rm  -rf   x")).toBe(hashOf(" rm -rf x "));
		expect(hashOf("ls\t-la |  wc")).toBe(hashOf("ls -la | wc"));
		expect(hashOf("a  &&  b ;  c")).toBe(hashOf("a && b ; c"));
	});

	it("keeps quoted blanks, escapes, comments and heredoc bodies exactly", () => {
		expect(hashOf('echo "a  b"')).not.toBe(hashOf('echo "a b"'));
		expect(hashOf("echo 'a  b'")).not.toBe(hashOf("echo 'a b'"));
		expect(hashOf("echo a\\ \\ b")).not.toBe(hashOf("echo a\\ b"));
		expect(hashOf("cat <<EOF\na  b\nEOF")).not.toBe(hashOf("cat <<EOF\na b\nEOF"));
		expect(hashOf("ls #  note")).not.toBe(hashOf("ls # note"));
		expect(hashOf("ls\nrm x")).not.toBe(hashOf("ls rm x"));
	});

	it("normalizes around heredocs whose body follows more commands on the line", () => {
		const parsed = bash.parse('cat  <<EOF  &&  echo  "x  y"  z\nbody   text\nEOF');
		expect(normalizeBashCommand(parsed)).toBe('cat <<EOF && echo "x  y" z\nbody   text\nEOF');
	});

	it("only trims what it cannot parse", () => {
		expect(normalizeBashCommand(bash.parse("  if  then  "))).toBe("if  then");
	});

	it("depends on the cwd and on the tier", () => {
		expect(hashOf("ls", "/a")).not.toBe(hashOf("ls", "/b"));
		const read = classifyAction({ tool: "bash", input: { command: "x" }, cwd: CWD }, depsFor(bash));
		const raised = classifyAction(
			{ tool: "bash", input: { command: "x" }, cwd: CWD },
			depsFor(bash, { extraCommandTiers: [{ pattern: "x", tier: "spend" }] }),
		);
		expect(read.hash).not.toBe(raised.hash);
	});

	it("does not depend on the input's key order", () => {
		const a = classifyAction({ tool: "bash", input: { command: "ls", timeout: 5 }, cwd: CWD }, depsFor(bash));
		const b = classifyAction({ tool: "bash", input: { timeout: 5, command: "ls" }, cwd: CWD }, depsFor(bash));
		expect(a.hash).toBe(b.hash);
	});
});
