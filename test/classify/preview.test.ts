import { beforeAll, describe, expect, it } from "vitest";
import { type BashParser, loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import {
	BASH_PREVIEW_MAX,
	PREVIEW_MAX,
	previewAction,
	REDACTED,
	redactSecrets,
} from "../../src/classify/preview.ts";

describe("previewAction", () => {
	it("shows each built-in tool in words", () => {
		expect(previewAction("bash", { command: "ls -la" })).toBe("ls -la");
		expect(previewAction("read", { path: "a.ts" })).toBe("a.ts");
		expect(previewAction("read", { path: "a.ts", offset: 10, limit: 5 })).toBe("a.ts (lines 10–14)");
		expect(previewAction("read", { path: "a.ts", offset: 10 })).toBe("a.ts (from line 10)");
		expect(previewAction("write", { path: "a.ts", content: "é\nb\n" })).toBe("a.ts (5 bytes, 2 lines)");
		expect(previewAction("write", { path: "e", content: "" })).toBe("e (0 bytes, 0 lines)");
		expect(
			previewAction("edit", {
				path: "a.ts",
				edits: [
					{ oldText: "a\nb", newText: "c" },
					{ oldText: "d", newText: "e\nf\ng" },
				],
			}),
		).toBe("a.ts: 2 edits, +4/-3 lines");
		expect(previewAction("grep", { pattern: "TODO", path: "src", glob: "*.ts" })).toBe(
			'grep "TODO" in src (*.ts)',
		);
		expect(previewAction("ls", {})).toBe("ls .");
	});

	it("shows other tools as name and compact JSON, capped", () => {
		expect(previewAction("mcp_x", { b: 1, a: "two" })).toBe('mcp_x {"a":"two","b":1}');
		const long = previewAction("mcp_x", { data: "x".repeat(10_000) });
		expect(long.length).toBeLessThan(PREVIEW_MAX + 60);
		expect(long).toMatch(/characters in all\)$/);
	});

	it("shows a delegation in words, with every field it carries", () => {
		expect(previewAction("subagent", { agent: "cleaner", task: "Remove\n  old logs." })).toBe(
			"cleaner, task: Remove old logs.",
		);
		expect(
			previewAction("subagent", {
				tasks: [{ agent: "a", task: "one", cwd: "/tmp/x" }, { task: "two" }, "odd"],
				async: false,
			}),
		).toBe("3 in parallel: a, task: one, cwd=/tmp/x | (default agent), task: two | odd · async=false");
		expect(previewAction("subagent", { chain: [{ agent: "p", task: "plan" }, { agent: "w" }] })).toBe(
			"chain: p, task: plan → w",
		);
		expect(previewAction("subagent", { action: "list" })).toBe("action list");
		expect(previewAction("subagent", { agent: { nested: true }, task: "t" })).toBe(
			'(default agent), task: t · agent={"nested":true}',
		);
		expect(previewAction("subagent", { prompt: "no agent named" })).toBe(
			'subagent {"prompt":"no agent named"}',
		);
		expect(
			previewAction("subagent", { agent: "x", task: "use token=sk-abcdefabcdefabcdefabcdef" }),
		).not.toContain("sk-abcdefabcdefabcdefabcdef");
	});

	it("caps very long bash commands with a visible marker", () => {
		const preview = previewAction("bash", { command: `echo ${"a".repeat(BASH_PREVIEW_MAX * 3)}` });
		expect(preview.length).toBeLessThan(BASH_PREVIEW_MAX + 60);
		expect(preview).toMatch(/…/);
	});

	it("falls back to JSON for a known tool with a malformed input", () => {
		expect(previewAction("bash", { cmd: "ls" })).toBe('bash {"cmd":"ls"}');
	});

	it("redacts secrets", () => {
		expect(
			previewAction("bash", { command: "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 gh pr list" }),
		).not.toMatch(/ghp_/);
		expect(previewAction("mcp_x", { apiKey: "s3cr3t-value" })).not.toMatch(/s3cr3t/);
	});
});

describe("redactSecrets", () => {
	const cases: ReadonlyArray<readonly [string, string]> = [
		["export API_KEY=abc123 && run", `export API_KEY=${REDACTED} && run`],
		["DB_PASSWORD='p a s s' psql", `DB_PASSWORD=${REDACTED} psql`],
		["mysql --password=hunter2 db", `mysql --password=${REDACTED} db`],
		["tool --token abc123 --verbose", `tool --token ${REDACTED} --verbose`],
		["gh --private-key k.pem", `gh --private-key ${REDACTED}`],
		// A path says where a secret is: it is shown (no redactor may swallow a path).
		["gh --private-key ./k.pem", "gh --private-key ./k.pem"],
		["mysql -uroot -phunter2 db", `mysql -uroot -p${REDACTED} db`],
		['curl -H "Authorization: Bearer abc.def.ghi" x', `curl -H "Authorization: Bearer ${REDACTED}" x`],
		["curl -H 'X-Api-Key: k-123' x", `curl -H 'X-Api-Key: ${REDACTED}' x`],
		["curl -u admin:hunter2 https://x", `curl -u admin:${REDACTED} https://x`],
		["git clone https://user:pa55@github.com/o/r", `git clone https://user:${REDACTED}@github.com/o/r`],
		["echo ghp_0123456789abcdefghijABCDEFGHIJ", `echo ${REDACTED}`],
		["echo github_pat_11ABCDEFG0123456789_abcdefghijklmnop", `echo ${REDACTED}`],
		["echo sk-proj-abcdefghijklmnopqrstuv", `echo ${REDACTED}`],
		["echo sk-ant-api03-abcdefghijklmnop", `echo ${REDACTED}`],
		["echo xoxb-1234567890-abcdef", `echo ${REDACTED}`],
		["aws AKIAIOSFODNN7EXAMPLE", `aws ${REDACTED}`],
		["k=AIzaSyA-1234567890abcdefghijklmnopqrstu", `k=${REDACTED}`],
		["jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", `jwt ${REDACTED}`],
		[
			"key -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA==\n-----END OPENSSH PRIVATE KEY----- end",
			`key ${REDACTED} end`,
		],
		["-----BEGIN RSA PRIVATE KEY-----\nMIIE (cut off", REDACTED],
		['{"password":"x","user":"u"}', `{"password":${REDACTED},"user":"u"}`],
	];
	for (const [input, expected] of cases) {
		it(input.split("\n")[0] ?? input, () => {
			expect(redactSecrets(input)).toBe(expected);
		});
	}

	// How long it takes is bench figure 9 (npm run bench -- 9).
	it("answers on long runs of word characters (no secret in them: unchanged)", () => {
		const text = `x${"a".repeat(200_000)}=y http${"s".repeat(100_000)}`;
		expect(redactSecrets(text)).toBe(text);
	});

	it("redacts secrets, never code: a value that runs a command is shown whole", () => {
		for (const text of [
			'API_TOKEN="$(rm -rf ~)" curl https://x.example',
			"API_TOKEN=`rm -rf ~` curl https://x.example",
			"PASSWORD=<(cat /etc/shadow) tool",
			"curl -H 'Authorization: Bearer $(rm -rf /)' https://x.example",
			"--password=$(touch pwned)",
			'{"password":"$(rm x)"}',
		]) {
			expect(redactSecrets(text)).toBe(text);
		}
		expect(redactSecrets("API_TOKEN=abc123secret curl x")).toBe(`API_TOKEN=${REDACTED} curl x`);
	});

	it("leaves ordinary commands alone", () => {
		for (const text of [
			"git commit --author='A <a@b>' -m 'fix auth flow'",
			"cp -pr src dst",
			"ls -la ~/projects",
			"npm run build -- --mode production",
			"grep -rn password_field src",
		]) {
			expect(redactSecrets(text)).toBe(text);
		}
	});
});

describe("a bash preview hides secret values, never what runs (real parser)", () => {
	let bash: BashParser;
	beforeAll(async () => {
		bash = await loadBashParser();
	});
	const preview = (command: string): string => previewAction("bash", { command }, bash);

	it("keeps every command between unquoted PEM markers", () => {
		const removes = Array.from({ length: 60 }, (_, i) => `rm -rf build/cache${i}`).join("; ");
		const command = `echo -----BEGIN PRIVATE KEY-----; ${removes}; rm -rf ../victim-outside; echo -----END PRIVATE KEY-----`;
		expect(preview(command)).toBe(command);
		// Without the parse tree (the lexical fallback) the structure stays too.
		expect(previewAction("bash", { command })).toBe(command);
	});

	it("still hides a key inside one quoted word, and one after a marker that reaches across commands", () => {
		const key = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----";
		expect(preview(`printf '%s' '${key}' > k.pem`)).toBe(`printf '%s' '${REDACTED}' > k.pem`);
		expect(preview(`echo -----BEGIN PRIVATE KEY-----; rm -rf x; echo "${key}"`)).toBe(
			`echo -----BEGIN PRIVATE KEY-----; rm -rf x; echo "${REDACTED}"`,
		);
		expect(preview(`cat > k.pem <<EOF\n${key}\nEOF`)).toBe(`cat > k.pem <<EOF\n${REDACTED}\nEOF`);
	});

	it("never hides a substitution in a URL's password, but hides a plain one", () => {
		for (const command of [
			"git clone https://u:$(rm\t-rf\t..)@example.com/r",
			'curl "https://u:pa$(touch x)ss@example.com"',
			"curl https://u:`id`@example.com",
		]) {
			expect(preview(command)).toBe(command);
		}
		expect(preview("git clone https://u:pa55@example.com/r && rm -rf ../x")).toBe(
			`git clone https://u:${REDACTED}@example.com/r && rm -rf ../x`,
		);
	});

	it("hides secrets inside a substitution's own words", () => {
		expect(preview('echo "$(curl -H "Authorization: Bearer abcdef123" x)"')).toBe(
			`echo "$(curl -H "Authorization: Bearer ${REDACTED}" x)"`,
		);
		expect(preview("API_TOKEN=abc123 $(echo run) ; ls")).toBe(`API_TOKEN=${REDACTED} $(echo run) ; ls`);
	});

	it("shows the command with its quoting", () => {
		const command = `python3 -c 'import json; print(json.dumps({"a": 1}))' && echo "a  b"`;
		expect(preview(command)).toBe(command);
	});

	it("never redacts a command name or a separator", () => {
		expect(preview("ghp_0123456789abcdefghijABCDEFGHIJ --x; echo ghp_0123456789abcdefghijABCDEFGHIJ")).toBe(
			`ghp_0123456789abcdefghijABCDEFGHIJ --x; echo ${REDACTED}`,
		);
		expect(preview("tool --token a;rm -rf ../x")).toBe(`tool --token ${REDACTED};rm -rf ../x`);
	});
});
