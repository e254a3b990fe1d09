import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
	CONFIG_REFERENCE_FILE,
	markdownAnchor,
	renderConfigReference,
} from "../../scripts/config-reference/config-reference.ts";
import { CONFIG_REFERENCE_EXAMPLES } from "../../scripts/config-reference/config-reference-notes.ts";
import {
	isForbidden,
	type JsonSchemaNode,
	jsonSchemaOf,
} from "../../scripts/config-reference/json-schema-node.ts";
import { JSON_SCHEMA_FILES } from "../../src/policy/config-json-schema.ts";
import { projectConfigPath, userConfigPath } from "../../src/policy/config-paths.ts";
import { type ConfigScope, ProjectConfigSchema, UserConfigSchema } from "../../src/policy/config-schema.ts";
import {
	DEFAULT_DEFER_EXPIRY_HOURS,
	DEFAULT_DIALOG_TIMEOUT_SECONDS,
} from "../../src/policy/effective-policy.ts";
import { loadPolicy } from "../../src/policy/load-policy.ts";
import { parseConfigText } from "../../src/policy/parse-config-text.ts";
import { DEFAULT_GRANT_CEILING, defaultModeForTier, TIERS } from "../../src/vocabulary/tier.ts";
import { REPO_ROOT } from "../harness/paths.ts";
import { type CodeBlock, configBlocks } from "./markdown-blocks.ts";

const committed = readFileSync(path.join(REPO_ROOT, CONFIG_REFERENCE_FILE), "utf8");
const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const userSchema = jsonSchemaOf(UserConfigSchema());
const projectSchema = jsonSchemaOf(ProjectConfigSchema());
const topLevelKeys = Object.keys(userSchema.properties ?? {});

/** A block that names the project schema is a project file; every other config block is a user file. */
function scopeOf(block: CodeBlock): ConfigScope {
	return block.text.includes(JSON_SCHEMA_FILES.project) ? "project" : "user";
}

function problemsOf(text: string, label: string, scope: ConfigScope): string[] {
	const result = parseConfigText(text, label, scope);
	return result.status === "loaded"
		? []
		: result.error.issues.map((i) => `${label}: ${i.jsonPath} ${i.problem}`);
}

/** Inline code spans outside fenced blocks. */
function inlineCode(markdown: string): string[] {
	const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
	return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
}

function section(markdown: string, heading: string): string {
	const start = markdown.indexOf(`\n${heading}\n`);
	if (start < 0) return "";
	const level = heading.split(" ")[0] ?? "";
	const rest = markdown.slice(start + heading.length + 2);
	const end = rest.search(new RegExp(`^#{1,${level.length}} `, "m"));
	return end < 0 ? rest : rest.slice(0, end);
}

function headingAnchors(markdown: string): string[] {
	const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
	return [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => markdownAnchor(m[1] ?? ""));
}

function objectOf(jsonc: string): Record<string, unknown> {
	return z.record(z.string(), z.unknown()).parse(parseJsonc(jsonc));
}

/** Every property name at any depth of a JSON Schema. */
function propertyNames(node: JsonSchemaNode, into = new Set<string>()): Set<string> {
	for (const [name, child] of Object.entries(node.properties ?? {})) {
		into.add(name);
		propertyNames(child, into);
	}
	for (const child of [node.items, node.not, ...(node.oneOf ?? [])]) if (child) propertyNames(child, into);
	if (typeof node.additionalProperties === "object") propertyNames(node.additionalProperties, into);
	return into;
}

const roots: string[] = [];
afterAll(() => {
	for (const root of roots) rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

function tempPolicyDirs() {
	const root = mkdtempSync(path.join(tmpdir(), "pph-config-reference-"));
	roots.push(root);
	const home = path.join(root, "home");
	const agentDir = path.join(home, ".pi", "agent");
	const cwd = path.join(root, "project");
	mkdirSync(path.join(agentDir, "pi-permission-hub"), { recursive: true });
	mkdirSync(path.join(cwd, ".pi"), { recursive: true });
	return { home, agentDir, cwd };
}

describe("docs/configuration.md", () => {
	it("matches a fresh rendering of the config schema", () => {
		if (committed !== renderConfigReference()) {
			expect.fail(
				`${CONFIG_REFERENCE_FILE} is out of date with src/policy/config-schema.ts: run npm run docs`,
			);
		}
	});

	it("renders the same bytes every time, ending in exactly one newline", () => {
		const first = renderConfigReference();
		expect(renderConfigReference()).toBe(first);
		expect(first.endsWith("\n")).toBe(true);
		expect(first.endsWith("\n\n")).toBe(false);
	});

	it("has a section for every top-level key, with the schema's description text", () => {
		for (const key of topLevelKeys) {
			const body = section(committed, `### \`${key}\``);
			expect(body, `section for ${key}`).not.toBe("");
			const description = userSchema.properties?.[key]?.description ?? "";
			expect(description, `${key} has a description`).not.toBe("");
			expect(body).toContain(description);
		}
	});

	it("states the defaults the code applies", () => {
		const defaultOf = (key: string) =>
			/^- \*\*Default:\*\* (.*)$/m.exec(section(committed, `### \`${key}\``))?.[1] ?? "";
		expect(defaultOf("dialogTimeoutSeconds")).toBe(`\`${DEFAULT_DIALOG_TIMEOUT_SECONDS}\``);
		expect(defaultOf("deferExpiryHours")).toBe(`\`${DEFAULT_DEFER_EXPIRY_HOURS}\``);
		expect(defaultOf("grantCeiling")).toMatch(new RegExp(`^\`${DEFAULT_GRANT_CEILING}\``));
		expect(defaultOf("unanswered")).toMatch(/^`wait` when a human is reachable.*`defer` otherwise$/);
		const tierTable = section(committed, "## Risk tiers");
		for (const tier of TIERS) {
			expect(tierTable).toMatch(new RegExp(`^\\| \`${tier}\` +\\| \`${defaultModeForTier(tier)}\` `, "m"));
		}
	});

	it("documents the precedence and where the files live, using the code's paths", () => {
		const precedence = section(committed, "## How a call is decided");
		expect(precedence).toContain(
			"**deny > parked approval > ask rule > session grant or allow rule within the ceiling > tier default**",
		);
		const where = section(committed, "## Where the files live");
		const agentDir = "<agent dir>";
		const cwd = "<cwd>";
		expect(where).toContain(`\`${userConfigPath(agentDir)}\``);
		expect(where).toContain(`\`${projectConfigPath(cwd)}\``);
		expect(where).toContain("only when pi trusts the project");
	});

	it("says which keys a project file may set, and the real loader agrees", () => {
		const example = objectOf(CONFIG_REFERENCE_EXAMPLES.user);
		const keyTable = section(committed, "## Top-level keys");
		const projectSection = section(committed, "## The project file");
		for (const key of topLevelKeys) {
			const forbidden = isForbidden(projectSchema.properties?.[key] ?? {});
			const row = keyTable.split("\n").find((line) => line.startsWith(`| [\`${key}\`]`)) ?? "";
			const projectCell = row.split(" | ").at(-1)?.replace(/\|$/, "").trim();
			expect(projectCell, row).toBe(forbidden ? "not allowed" : "allowed");
			const text = JSON.stringify({ [key]: example[key] });
			const result = parseConfigText(text, "project.json", "project");
			expect(result.status, `a project file setting ${key}`).toBe(forbidden ? "invalid" : "loaded");
			expect(parseConfigText(text, "config.json", "user").status).toBe("loaded");
			if (forbidden) expect(projectSection).toMatch(new RegExp(`^- \`${key}\`: \\S`, "m"));
		}
		expect(topLevelKeys.filter((key) => isForbidden(projectSchema.properties?.[key] ?? {}))).toEqual([
			"authorizerChain",
			"grantCeiling",
			"defaultMode",
			"notify",
			"forwardedDialogKeys",
			"forwardWithUI",
		]);
	});

	it("has examples the real loader accepts without warnings, and the user example sets every key", () => {
		const blocks = configBlocks(committed);
		expect(blocks.map(scopeOf)).toEqual(["user", "project"]);
		const [user, project] = blocks;
		expect(user?.text).toBe(`${CONFIG_REFERENCE_EXAMPLES.user}\n`);
		expect(project?.text).toBe(`${CONFIG_REFERENCE_EXAMPLES.project}\n`);
		for (const block of blocks)
			expect(problemsOf(block.text, `line ${block.line}`, scopeOf(block))).toEqual([]);
		expect(Object.keys(objectOf(CONFIG_REFERENCE_EXAMPLES.user)).sort()).toEqual([...topLevelKeys].sort());

		const { home, agentDir, cwd } = tempPolicyDirs();
		writeFileSync(userConfigPath(agentDir), CONFIG_REFERENCE_EXAMPLES.user);
		writeFileSync(projectConfigPath(cwd), CONFIG_REFERENCE_EXAMPLES.project);
		const policy = loadPolicy({ agentDir, cwd, homeDir: home, projectTrusted: true });
		expect(policy.configErrors).toEqual([]);
		expect(policy.warnings).toEqual([]);
		expect(policy.sources.map((s) => s.state)).toEqual(["loaded", "loaded", "missing"]);
		// The merge rules the page states: the stricter unanswered policy, the tightened tier, the user-only ceiling.
		expect(policy.unanswered).toBe("deny");
		expect(policy.tiers.destructive.mode).toBe("deny");
		expect(policy.tiers.spend.mode).toBe("ask");
		expect(policy.grantCeiling.tier).toBe("network-egress");
		expect(policy.dialogTimeoutSeconds).toBe(120);
		expect(policy.forwardedDialogKeys).toBe("twice");
		expect(policy.forwardWithUI).toBe("parent-only");
	});

	it("has unique heading anchors and links only to headings that exist", () => {
		const anchors = headingAnchors(committed);
		expect(
			anchors.filter((a, i) => anchors.indexOf(a) !== i),
			"duplicate anchors",
		).toEqual([]);
		const links = [...committed.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1] ?? "");
		expect(links.length).toBeGreaterThan(10);
		for (const link of links) expect(anchors, `#${link}`).toContain(link);
	});
});

describe("README.md and the config schema", () => {
	it("names every top-level key of the user schema in README.md or in docs/configuration.md", () => {
		const missing = topLevelKeys.filter(
			(key) => !readme.includes(key) && !committed.includes(`### \`${key}\``),
		);
		expect(missing).toEqual([]);
	});

	it("has config examples that the real loader accepts", () => {
		const blocks = configBlocks(readme);
		expect(blocks.length, "README.md has at least one config example").toBeGreaterThan(0);
		const problems = blocks.flatMap((block) =>
			problemsOf(block.text, `README.md code block at line ${block.line}`, scopeOf(block)),
		);
		expect(problems).toEqual([]);
	});

	it("names no config key that does not exist", () => {
		const known = propertyNames(userSchema);
		const configSections = ["## A first policy", "## The dialog"].map((heading) => section(readme, heading));
		expect(configSections.every((text) => text !== "")).toBe(true);
		// camelCase spans in these sections name config keys (other sections also describe the keys of other
		// tools, e.g. a subagent launcher's settings, which this schema rightly does not have).
		const spans = configSections
			.flatMap((text) => inlineCode(text))
			.filter((span) => /^"?\$?[a-z]+[A-Z]/.test(span));
		expect(spans.length).toBeGreaterThan(0);
		const unknown = spans.filter((span) => {
			const path = /^"?([$\w.-]+)"?/.exec(span)?.[1] ?? "";
			return path.split(".").some((segment) => !known.has(segment));
		});
		expect(unknown, "README.md names keys the config schema does not have").toEqual([]);
	});

	it(`links only to headings that exist in ${CONFIG_REFERENCE_FILE}`, () => {
		const anchors = headingAnchors(committed);
		const links = [...readme.matchAll(/\]\(\.?\/?docs\/configuration\.md(?:#([^)]*))?\)/g)].map((m) => m[1]);
		for (const anchor of links) if (anchor !== undefined) expect(anchors, `#${anchor}`).toContain(anchor);
		// A README table of keys that links into the reference must not silently miss a key.
		const keyAnchors = new Set(topLevelKeys.map(markdownAnchor));
		const linkedKeys = links.filter((anchor) => anchor !== undefined && keyAnchors.has(anchor));
		const unlisted = topLevelKeys.filter((key) => !linkedKeys.includes(markdownAnchor(key)));
		if (linkedKeys.length > 0) expect(unlisted, "keys missing from README.md's key table").toEqual([]);
	});
});
