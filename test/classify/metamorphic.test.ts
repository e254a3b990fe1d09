/**
 * Metamorphic properties of the classifier: wrapping a command in any construct or wrapper that still runs it
 * never lowers the action's tier, and every command unit of the original is still found (so a deny rule that
 * matched the original still matches the wrapped form).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import type { BashParser } from "../../src/classify/bash/bash-parser.ts";
import { tierRank } from "../../src/vocabulary/tier.ts";
import { bashParser, classifyBash, unitTexts } from "./classify-fixture.ts";

let bash: BashParser;
beforeAll(async () => {
	bash = await bashParser();
});

const CORPUS: readonly string[] = [
	// read
	"ls -la",
	"cat README.md",
	"git status --short",
	"grep -rn TODO src",
	"find . -name x.ts",
	"head -n 5 a.txt",
	"wc -l a b",
	'echo "hello  world"',
	"git log --oneline -5",
	"jq .name package.json",
	"diff a.txt b.txt",
	"ps aux",
	"env",
	"echo $(git rev-parse HEAD)",
	"ls | grep x",
	// write
	"touch new.txt",
	"mkdir -p out/dir",
	"cp a.txt b.txt",
	"mv a.txt b.txt",
	"npm run build",
	"make all",
	"sed -i s/a/b/ f.txt",
	"echo hi > out.txt",
	"git commit -m 'wip: x'",
	"tee log.txt",
	"python3 script.py",
	"frobnicate --all",
	// network-egress
	"curl -s https://example.com",
	"git push origin main",
	"npm install",
	"pip install requests",
	"ssh host uptime",
	"wget https://x.example/y",
	"npx prettier --check .",
	// spend
	"terraform apply -auto-approve",
	"kubectl apply -f deploy.yaml",
	"helm upgrade app chart",
	// destructive
	"rm -rf build",
	"git reset --hard HEAD~1",
	"git push --force origin main",
	"find . -name '*.tmp' -delete",
	"dd if=/dev/zero of=disk.img bs=1M count=1",
	"git clean -fdx",
	"kubectl delete ns prod",
	"docker system prune -af",
	"cd src && rm -rf dist",
	// privileged
	"sudo apt-get install -y curl",
	"echo x > /etc/hosts",
	"chmod -R 777 /usr/local",
	"systemctl restart nginx",
	"source ./env.sh",
	"python3 -c 'import os'",
	"env LD_PRELOAD=./x.so ls",
	"$CMD --flag",
	"kill -9 1",
];

function singleQuoted(code: string): string {
	return `'${code.replaceAll("'", "'\\''")}'`;
}

function doubleQuoted(code: string): string {
	return `"${code.replace(/[\\"$`]/g, (char) => `\\${char}`)}"`;
}

type Wrap = (code: string) => string;

/** Prefix wrappers run one simple command; anything else is handed to them as `sh -c '…'`, as a person would. */
function prefixed(prefix: string, suffix = ""): Wrap {
	return (code) => `${prefix} ${isSimpleCommand(code) ? code : `sh -c ${singleQuoted(code)}`}${suffix}`;
}

function isSimpleCommand(code: string): boolean {
	const parsed = bash.parse(code);
	if (!parsed.ok || parsed.root.children.length !== 1) return false;
	const [statement] = parsed.root.children;
	if (statement?.type === "command") return true;
	return statement?.type === "redirected_statement" && statement.children[0]?.type === "command";
}

const WRAPS: Readonly<Record<string, Wrap>> = {
	"cd x && …": (code) => `cd x && ${code}`,
	"( … )": (code) => `( ${code} )`,
	"{ …; }": (code) => `{ ${code}; }`,
	"echo $(…)": (code) => `echo $( ${code} )`,
	"echo `…`": (code) => `echo \`${code.replace(/[\\`]/g, (char) => `\\${char}`)}\``,
	"bash -c '…'": (code) => `bash -c ${singleQuoted(code)}`,
	'sh -c "…"': (code) => `sh -c ${doubleQuoted(code)}`,
	"sudo …": prefixed("sudo"),
	"env A=1 …": prefixed("env A=1"),
	"timeout 5 …": prefixed("timeout 5"),
	"… | cat": (code) => `${code} | cat`,
	"cat f | …": (code) => `cat f | ${code}`,
	"if true; then …; fi": (code) => `if true; then ${code}; fi`,
	"for i in 1; do …; done": (code) => `for i in 1; do ${code}; done`,
	"f() { …; }; f": (code) => `f() { ${code}; }; f`,
	"nohup … &": prefixed("nohup", " &"),
};

/** A program ending in `&` is grouped before it is wrapped again (`x &; }` is not bash). */
function wrapOnce(name: string, code: string): string {
	const wrap = WRAPS[name];
	if (wrap === undefined) throw new Error(`unknown wrap ${name}`);
	return wrap(code.trimEnd().endsWith("&") ? `{ ${code} }` : code);
}

function checkProperty(base: string, wrapped: string): void {
	const original = classifyBash(bash, base);
	const result = classifyBash(bash, wrapped);
	const context = `${JSON.stringify(base)} → ${JSON.stringify(wrapped)}`;
	expect(
		tierRank(result.tier),
		`${context}: ${original.tier} → ${result.tier}${explain(result)}`,
	).toBeGreaterThanOrEqual(tierRank(original.tier));
	const found = new Set(unitTexts(result));
	for (const text of unitTexts(original)) {
		expect(
			found.has(text),
			`${context}: unit ${JSON.stringify(text)} missing from ${JSON.stringify([...found])}`,
		).toBe(true);
	}
}

function explain(action: ClassifiedAction): string {
	return `\n${action.parts.map((part) => `  ${part.tier} ${part.command?.text ?? "-"}: ${part.tierReason}`).join("\n")}`;
}

describe("the corpus covers every tier", () => {
	it("has at least 40 commands and one of each tier", () => {
		expect(CORPUS.length).toBeGreaterThanOrEqual(40);
		const tiers = new Set(CORPUS.map((command) => classifyBash(bash, command).tier));
		expect([...tiers].sort()).toEqual([
			"destructive",
			"network-egress",
			"privileged",
			"read",
			"spend",
			"write",
		]);
	});
});

describe.each(Object.entries(WRAPS))(
	"wrapping in %s never lowers the tier and keeps every unit",
	(_name, wrap) => {
		it.each(CORPUS)("%s", (base) => {
			checkProperty(base, wrap(base));
		});
	},
);

/** mulberry32: a small deterministic PRNG, so the random compositions are the same on every run. */
function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe("random compositions of 2–3 wrappers (seeded)", () => {
	const random = prng(0x5eed_0003);
	const names = Object.keys(WRAPS);
	const cases: Array<{ base: string; chain: string[] }> = [];
	for (const base of CORPUS) {
		for (let round = 0; round < 4; round++) {
			const length = 2 + Math.floor(random() * 2);
			const chain = Array.from({ length }, () => names[Math.floor(random() * names.length)] ?? "( … )");
			cases.push({ base, chain });
		}
	}

	it.each(cases)("$chain: $base", ({ base, chain }) => {
		const wrapped = chain.reduce((code, name) => wrapOnce(name, code), base);
		checkProperty(base, wrapped);
	});
});
