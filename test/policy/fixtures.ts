/**
 * Hand-built ClassifiedActions (the classifier is another layer) and helpers that turn config text into
 * policies through the real parser and merge.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach } from "vitest";
import type { ActionPart, ClassifiedAction, PathAccess, PathTouch } from "../../src/classify/action.ts";
import type { Origin } from "../../src/origin/origin.ts";
import { buildEffectivePolicy } from "../../src/policy/build-effective-policy.ts";
import type { ConfigFileState } from "../../src/policy/config-file.ts";
import type { ConfigScope } from "../../src/policy/config-schema.ts";
import type { DecideContext } from "../../src/policy/decide.ts";
import type { EffectivePolicy } from "../../src/policy/effective-policy.ts";
import type { SessionGrant } from "../../src/policy/grant-coverage.ts";
import { parseConfigText } from "../../src/policy/parse-config-text.ts";
import { maxTier, type Tier } from "../../src/vocabulary/tier.ts";

export const HOME = "/home/dev";
export const CWD = "/home/dev/project";
export const USER_FILE = "/home/dev/.pi/agent/pi-permission-hub/config.json";
export const PROJECT_FILE = "/home/dev/project/.pi/pi-permission-hub.json";
export const MANAGED_FILE = "/etc/pi-permission-hub/config.json";

export function touch(access: PathAccess, absolute: string, resolved = absolute, cwd = CWD): PathTouch {
	const inside = (p: string): boolean => p === cwd || p.startsWith(`${cwd}/`);
	return { access, typed: absolute, absolute, resolved, outsideCwd: !inside(absolute) || !inside(resolved) };
}

export function commandPart(
	text: string,
	tier: Tier,
	options: { paths?: readonly PathTouch[]; via?: readonly string[] } = {},
): ActionPart {
	const argv = text.split(" ");
	return {
		tier,
		tierReason: `test: ${tier}`,
		command: { text, name: basename(argv[0] ?? ""), argv, literal: true, via: options.via ?? [] },
		paths: options.paths ?? [],
	};
}

export function pathPart(tier: Tier, ...paths: PathTouch[]): ActionPart {
	return { tier, tierReason: `test: ${tier}`, paths };
}

export function toolPart(tier: Tier): ActionPart {
	return { tier, tierReason: `test: ${tier}`, paths: [] };
}

let hashCounter = 0;

export function action(tool: string, parts: readonly ActionPart[], cwd = CWD): ClassifiedAction {
	const tier = parts.reduce<Tier>((top, p) => maxTier(top, p.tier), "read");
	hashCounter += 1;
	return { tool, input: {}, cwd, tier, parts, hash: `hash-${hashCounter}`, preview: tool };
}

export function bash(...units: readonly (readonly [string, Tier])[]): ClassifiedAction {
	return action(
		"bash",
		units.map(([text, tier]) => commandPart(text, tier)),
	);
}

export const HUMAN: Origin = { kind: "human" };

export function subagent(name: string): Origin {
	return { kind: "subagent", name, depth: 1, path: ["root", name] };
}

/** A later approval of a parked request, given with the CLI. */
export const APPROVED = {
	requestId: "01ARZ3NDEKTSV4RRFFQ69G5FAV",
	approvedBy: { kind: "user", via: "cli", verdict: "allow", scope: "once" },
	askerPath: ["root"],
} as const;

export function ctx(overrides: Partial<DecideContext> = {}): DecideContext {
	return { origin: HUMAN, grants: [], parkedApproval: null, ...overrides };
}

export function grant(
	surface: SessionGrant["surface"],
	pattern: string,
	id = `g-${surface}-${pattern}`,
	limit: SessionGrant["limit"] = { tier: "privileged", outsideCwd: true },
): SessionGrant {
	// Unlimited by default: tests of the limit itself pass their own.
	return { id, surface, pattern, scope: "session", limit, grantedAt: "2025-01-01T00:00:00.000Z" };
}

function state(text: string | null, file: string, scope: ConfigScope): ConfigFileState {
	return text === null ? { status: "missing", file, scope } : parseConfigText(text, file, scope);
}

/** The policy from a user config text and a (trusted) project config text; null means no such file. */
export function policyFrom(
	user: string | null,
	project: string | null = null,
	managed: string | null = null,
): EffectivePolicy {
	return buildEffectivePolicy({
		context: { cwd: CWD, homeDir: HOME },
		user: state(user, USER_FILE, "user"),
		project: state(project, PROJECT_FILE, "project"),
		managed: state(managed, MANAGED_FILE, "managed"),
	});
}

export function policyFromConfig(user: unknown, project: unknown = null): EffectivePolicy {
	return policyFrom(JSON.stringify(user), project === null ? null : JSON.stringify(project));
}

/** A fresh real temp directory (realpath'd, so paths compare equal on macOS), removed after the test. */
export function tempDir(): string {
	const dir = realpathSync(mkdtempSync(join(tmpdir(), "pph-policy-")));
	cleanups.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
	return dir;
}

export function writeFile(path: string, content: string): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, content);
}

const cleanups: (() => void)[] = [];
afterEach(() => {
	for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Deterministic PRNG (mulberry32) so property tests replay exactly. */
export function prng(seed: number): {
	next(): number;
	int(n: number): number;
	pick<T>(items: readonly T[]): T;
} {
	let state = seed >>> 0;
	const next = (): number => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const int = (n: number): number => Math.floor(next() * n);
	return {
		next,
		int,
		pick: <T>(items: readonly T[]): T => {
			const item = items[int(items.length)];
			if (item === undefined) throw new Error("pick from an empty list");
			return item;
		},
	};
}
