// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are bash, whose ${…} is not a template
import { beforeAll, describe, expect, it } from "vitest";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { MAX_SYNTAX_DEPTH } from "../../src/classify/bash/bash-parser.ts";
import { bashParser, classifyBash, partFor, unitTexts } from "./classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

interface UnitCase {
	readonly command: string;
	/** Unit text → its `via` joined with " > " ("" for none). */
	readonly units: Readonly<Record<string, string>>;
	/** The program does arithmetic on run-time values, which is privileged. */
	readonly arithmetic?: boolean;
}

const CONSTRUCTS: readonly UnitCase[] = [
	{ command: "a && b || c ; d", units: { a: "", b: "", c: "", d: "" } },
	{ command: "a\nb\n\nc", units: { a: "", b: "", c: "" } },
	{ command: "a | b |& c", units: { a: "", b: "", c: "" } },
	{ command: "a & b", units: { a: "&", b: "" } },
	{ command: "(a; b)", units: { a: "(…)", b: "(…)" } },
	{ command: "{ a; b; }", units: { a: "", b: "" } },
	{ command: "echo $(a x)", units: { "a x": "$(…)", "echo $(a x)": "" } },
	{ command: "echo `a x`", units: { "a x": "`…`", "echo `a x`": "" } },
	{ command: "diff <(a) >(b)", units: { a: "<(…)", b: ">(…)", "diff <(a) >(b)": "" } },
	{ command: 'echo "nested $(a "$(b)")"', units: { b: "$(…) > $(…)", "a $(b)": "$(…)" } },
	{ command: "if a; then b; elif c; then d; else e; fi", units: { a: "", b: "", c: "", d: "", e: "" } },
	{ command: "while a; do b; done; until c; do d; done", units: { a: "", b: "", c: "", d: "" } },
	{ command: "for i in $(a); do b $i; done", units: { a: "$(…)", "b $i": "" } },
	{ command: "for ((i=0; i<$(a); i++)); do b; done", units: { a: "$(…)", b: "" }, arithmetic: true },
	{ command: "case $(a) in x|y) b;; *) c;; esac", units: { a: "$(…)", b: "", c: "" } },
	{ command: "f() { a; }; function g { b; }", units: { a: "f()", b: "g()" } },
	{ command: "! a", units: { a: "" } },
	{ command: "X=1 Y=$(a) b c", units: { a: "$(…)", "b c": "" } },
	{ command: "X=$(a) Y=2", units: { a: "$(…)" } },
	{ command: "export X=$(a) Y", units: { a: "$(…)", "export X=$(a) Y": "" } },
	{ command: "local -r Z=`a`", units: { a: "`…`" } },
	{ command: "[[ -f $(a) ]] && [ -d x ]", units: { a: "$(…)", "[[ -f $(a) ]]": "", "[ -d x ]": "" } },
	{ command: "(( $(a) + 1 ))", units: { a: "$(…)" }, arithmetic: true },
	{ command: "echo ${X:-$(a)} $((1 + $(b)))", units: { a: "$(…)", b: "$(…)" }, arithmetic: true },
	{ command: 'a <<< "$(b)"', units: { a: "", b: "$(…)" } },
	{ command: "cat <<EOF\nnot a command\n$(a)\nEOF", units: { cat: "", a: "$(…)" } },
	{ command: "cat <<'EOF'\nrm -rf /\n$(a)\nEOF", units: { cat: "" } },
	{ command: "cat <<EOF && a\nbody\nEOF", units: { cat: "", a: "" } },
	{ command: "cat <<EOF | a\nbody\nEOF", units: { cat: "", a: "" } },
	{ command: "x=$(cat < f)", units: { cat: "$(…)" } },
	{ command: "a 2>/dev/null -x y", units: { "a -x y": "" } },
	{ command: "> out a b", units: { "a b": "" } },
	{ command: "ls # rm -rf /", units: { ls: "" } },
	{ command: "l\\s -la", units: { "ls -la": "" } },
	{ command: "'r'm \"-\"rf $'\\x2f'tmp", units: { "rm -rf /tmp": "" } },
	{ command: "a\\\n  b", units: { "a b": "" } },
];

describe("every command of a bash program becomes a unit", () => {
	for (const { command, units, arithmetic } of CONSTRUCTS) {
		it(JSON.stringify(command), () => {
			const action = classifyBash(bash, command);
			for (const [text, via] of Object.entries(units)) {
				const part = partFor(action, text);
				expect(part.command?.via.join(" > "), text).toBe(via);
			}
			// Arithmetic on what a command printed evaluates that text as an expression: not provable.
			const privileged = action.parts.filter((part) => part.tier === "privileged");
			if (arithmetic === true)
				expect(privileged.map((p) => p.tierReason)).toEqual([
					expect.stringMatching(/^arithmetic on a variable/),
				]);
			else expect(privileged, JSON.stringify(action.parts)).toEqual([]);
		});
	}
});

describe("words", () => {
	it("strip leading assignments and keep placeholders for run-time parts", () => {
		const action = classifyBash(bash, 'X=1 tool "$HOME/a b" ${Y}c *.txt ~/d');
		const part = partFor(action, "tool $HOME/a b ${Y}c *.txt ~/d");
		expect(part.command?.argv).toEqual(["tool", "$HOME/a b", "${Y}c", "*.txt", "~/d"]);
		expect(part.command?.literal).toBe(false);
		expect(part.command?.name).toBe("tool");
	});

	it("mark fully literal commands as literal and use the basename as name", () => {
		const part = partFor(classifyBash(bash, "/usr/bin/env"), "/usr/bin/env");
		expect(part.command?.literal).toBe(true);
		expect(part.command?.name).toBe("env");
	});

	it("treat brace expansion as non-literal", () => {
		expect(partFor(classifyBash(bash, "echo {a,b}"), "echo {a,b}").command?.literal).toBe(false);
		expect(partFor(classifyBash(bash, "find . -exec x {} +"), "find . -exec x {} +").command?.literal).toBe(
			true,
		);
	});
});

describe("what cannot be analysed takes the highest tier", () => {
	const cases: ReadonlyArray<readonly [string, RegExp]> = [
		["if true; then echo x", /syntax error/],
		['echo "open', /syntax error/],
		["$CMD x", /computed at run time/],
		["${R}m -f x", /computed at run time/],
		["$(echo rm) x", /computed at run time/],
		['"$(which rm)" x', /computed at run time/],
		['bash -c "$X"', /computed at run time/],
		["eval $X", /computed at run time/],
		["bash -c 'if'", /cannot be analysed/],
	];
	for (const [command, reason] of cases) {
		it(command, () => {
			const action = classifyBash(bash, command);
			expect(action.tier).toBe("privileged");
			expect(action.parts.some((part) => part.tier === "privileged" && reason.test(part.tierReason))).toBe(
				true,
			);
		});
	}

	it("caps shell code nested in shell code", () => {
		let command = "ls";
		// `$'…'` quoting grows the text by a factor of two per level, not five, so ten levels stay small.
		for (let level = 0; level < 10; level++) command = `bash -c ${ansiQuote(command)}`;
		const action = classifyBash(bash, command);
		expect(action.tier).toBe("privileged");
		expect(action.parts.some((part) => /nested more than 8/.test(part.tierReason))).toBe(true);
	});

	it("walks trees just under the depth limit without overflowing", () => {
		const depth = MAX_SYNTAX_DEPTH - 10;
		const action = classifyBash(bash, `${"( ".repeat(depth)}rm x${" )".repeat(depth)}`);
		expect(unitTexts(action)).toEqual(["rm x"]);
		expect(action.tier).toBe("destructive");
	});

	it("joins backslash-newline as bash does, except where bash keeps it", () => {
		expect(classifyBash(bash, "r\\\nm -rf x").tier).toBe("destructive");
		expect(unitTexts(classifyBash(bash, "r\\\nm -rf x"))).toEqual(["rm -rf x"]);
		expect(unitTexts(classifyBash(bash, 'echo "a\\\nb"; l\\\ns'))).toEqual(["echo ab", "ls"]);
		// Single quotes and a heredoc with a quoted delimiter keep it as text; a comment ends at the newline.
		expect(unitTexts(classifyBash(bash, "echo 'r\\\nm'"))).toEqual(["echo r\\\nm"]);
		expect(unitTexts(classifyBash(bash, "ls # r\\\nm -rf x"))).toEqual(["ls", "m -rf x"]);
		const heredoc = classifyBash(bash, "cat <<'EOF'\nr\\\nm -rf x\nEOF");
		expect([heredoc.tier, unitTexts(heredoc)]).toEqual(["read", ["cat"]]);
	});

	it("bounds the work: a huge pipeline is not analysed and takes the highest tier", () => {
		const pipeline = classifyBash(bash, `${"ls|".repeat(262_144)}ls`);
		expect(pipeline.tier).toBe("privileged");
		expect(pipeline.parts[0]?.tierReason).toMatch(
			/^the command cannot be analysed: the command is longer than/,
		);
		const many = classifyBash(bash, Array.from({ length: 400 }, (_, i) => `cat f${i}`).join("; "));
		expect(many.tier).toBe("privileged");
		expect(many.parts[0]?.tierReason).toMatch(/more than 150 commands/);
		// A long heredoc is one node: writing a file with cat stays a plain write.
		const file = classifyBash(bash, `cat > notes.txt <<'EOF'\n${"some text\n".repeat(2_000)}EOF`);
		expect(file.tier).toBe("write");
	});

	it("backquoted text is unescaped and parsed again, as bash does", () => {
		const computed = classifyBash(bash, "echo `nohup \\$CMD --flag`");
		expect(computed.tier).toBe("privileged");
		const nested = classifyBash(bash, "echo `a \\`rm x\\``");
		expect(partFor(nested, "rm x").command?.via).toEqual(["`…`", "`…`"]);
	});

	it("a reserved word in command position means the grammar misread the program", () => {
		const action = classifyBash(bash, "timeout 5 for i in 1; do rm x; done");
		expect(action.tier).toBe("privileged");
		expect(action.parts.some((part) => /reserved word/.test(part.tierReason))).toBe(true);
		expect(classifyBash(bash, '"do" x').tier).toBe("write");
	});

	it("an empty program or a comment runs nothing", () => {
		expect(classifyBash(bash, "").tier).toBe("read");
		expect(classifyBash(bash, "  # just a comment").parts).toEqual([]);
	});
});

function ansiQuote(text: string): string {
	return `$'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}
