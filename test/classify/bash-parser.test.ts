import { describe, expect, it } from "vitest";
import {
	loadBashParser,
	MAX_BASH_SOURCE_LENGTH,
	MAX_SYNTAX_DEPTH,
	type SyntaxNode,
	sharedUntilFailure,
} from "../../src/classify/bash/bash-parser.ts";

function types(node: SyntaxNode): string[] {
	return [node.type, ...node.children.flatMap(types)];
}

describe("loadBashParser", () => {
	it("loads once per process and reports how long the load took", async () => {
		const first = await loadBashParser();
		const second = await loadBashParser();
		expect(second).toBe(first);
		expect(first.loadMs).toBeGreaterThan(0);
	});

	it("parses synchronously into plain nodes with UTF-16 ranges", async () => {
		const parser = await loadBashParser();
		const source = 'é=1 echo "ü $(rm ä)"';
		const result = parser.parse(source);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(types(result.root)).toContain("command_substitution");
		const words: string[] = [];
		const collect = (node: SyntaxNode): void => {
			if (node.type === "word") words.push(source.slice(node.start, node.end));
			node.children.forEach(collect);
		};
		collect(result.root);
		expect(words).toEqual(["echo", "rm", "ä"]);
	});

	it("rejects syntax errors and missing tokens instead of guessing", async () => {
		const parser = await loadBashParser();
		for (const source of ["if true; then echo x", 'echo "unterminated', "a <> b", "(( ", "echo $("]) {
			const result = parser.parse(source);
			expect(result.ok, source).toBe(false);
		}
	});

	it("refuses input that is too long or nested too deeply, without throwing", async () => {
		const parser = await loadBashParser();
		const long = parser.parse(`echo ${"a".repeat(MAX_BASH_SOURCE_LENGTH)}`);
		expect(long.ok).toBe(false);
		const deep = parser.parse(`${"( ".repeat(MAX_SYNTAX_DEPTH + 5)}ls${" )".repeat(MAX_SYNTAX_DEPTH + 5)}`);
		expect(deep.ok).toBe(false);
		if (!deep.ok) expect(deep.reason).toMatch(/deeper/);
	});
});

describe("sharedUntilFailure", () => {
	it("shares one attempt between callers and starts over after a failure", async () => {
		let attempts = 0;
		const load = sharedUntilFailure(async () => {
			attempts++;
			if (attempts === 1) throw new Error("first load fails");
			return attempts;
		});
		await expect(load()).rejects.toThrow("first load fails");
		const [a, b] = await Promise.all([load(), load()]);
		expect(a).toBe(2);
		expect(b).toBe(2);
		expect(await load()).toBe(2);
		expect(attempts).toBe(2);
	});
});
