import { dirname } from "node:path";
import type { ActionPart } from "../classify/action.ts";
import type { GrantLimit, GrantSurface } from "../policy/grant-coverage.ts";
import { globLiteral } from "../policy/path-pattern.ts";
import { type Tier, tierRank } from "../vocabulary/tier.ts";

/** A pattern a human may approve for the rest of the session, shown in the dialog before they choose it. */
export interface SuggestedGrant {
	readonly surface: GrantSurface;
	readonly pattern: string;
	/** The grant will not cover anything riskier than the part it was offered for. */
	readonly limit: GrantLimit;
}

/** A part that asked, with its tier after the policy's raise-only floors. */
export interface AskingPart {
	readonly part: ActionPart;
	readonly tier: Tier;
}

/** Commands whose first argument names what they do (`git checkout`, `npm install`), two levels for some. */
const SUBCOMMAND_DEPTH: Readonly<Record<string, number>> = {
	git: 1,
	npm: 1,
	pnpm: 1,
	yarn: 1,
	bun: 1,
	cargo: 1,
	go: 1,
	docker: 1,
	podman: 1,
	kubectl: 1,
	helm: 1,
	terraform: 1,
	pulumi: 1,
	gh: 2,
	aws: 2,
	gcloud: 2,
	az: 2,
	pip: 1,
	uv: 1,
	poetry: 1,
	make: 1,
	just: 1,
	systemctl: 1,
	brew: 1,
	apt: 1,
	"apt-get": 1,
};

/**
 * Subcommands that run a program, script or image their words name (`npm run x`, `go run x.go`, `docker run
 * img`, `npx`-like `exec`/`x`/`dlx`): what follows is code, not data, so the grant names the exact command.
 */
const RUNS_WHAT_FOLLOWS: ReadonlySet<string> = new Set(["run", "run-script", "exec", "x", "dlx"]);

/** Above this tier a session grant names the exact command: widening `rm -rf build` to `rm *` is not a choice to offer. */
const GENERALIZE_UP_TO = tierRank("network-egress");

/**
 * The narrowest useful pattern per asking part: `git checkout *` for `git checkout main`, `touch *` for a
 * command whose only effects are its paths (the limit keeps them in the project and the tier), `ls *` for a
 * command proven read-only (the limit keeps it there), the exact command
 * for anything else — a program or script run (`node scripts/gen.js` is not `node *`), a destructive or
 * privileged one —, the parent directory for a path, the tool name otherwise. A part no pattern can name
 * exactly gets no suggestion: it will simply ask again. The pattern is exactly what the dialog shows.
 */
export function suggestGrants(tool: string, parts: readonly AskingPart[]): SuggestedGrant[] {
	const seen = new Set<string>();
	const out: SuggestedGrant[] = [];
	const add = (grant: SuggestedGrant | null): void => {
		if (grant === null) return;
		const key = `${grant.surface}\u0000${grant.pattern}`;
		if (seen.has(key)) return;
		seen.add(key);
		out.push(grant);
	};
	for (const { part, tier } of parts) {
		const limit: GrantLimit = { tier, outsideCwd: part.paths.some((p) => p.outsideCwd) };
		if (part.command) {
			const pattern = commandPattern(part, tier);
			add(pattern === null ? null : { surface: "command", pattern, limit });
		} else if (part.paths.length > 0) {
			for (const path of part.paths) {
				add({ surface: path.access, pattern: directoryPattern(path.absolute), limit });
			}
		} else {
			add(wildcardLiteral(tool) ? { surface: "tool", pattern: tool, limit } : null);
		}
	}
	return out;
}

function commandPattern(part: ActionPart, tier: Tier): string | null {
	const command = part.command;
	if (!command) return null;
	// Command patterns have no escape for `*`: the text `rm -rf *.o` as a pattern would also cover
	// `rm -rf / x.o`, so a text with a literal `*` is never offered as "exact".
	const exact = wildcardLiteral(command.text) ? command.text : null;
	if (!command.literal || tierRank(tier) > GENERALIZE_UP_TO) return exact;
	const depth = SUBCOMMAND_DEPTH[command.name] ?? 0;
	// A `*` stands only for words whose effect is known: a known-effects command's paths, a command proven
	// read-only (the limit keeps every call it covers at `read`), or what follows a subcommand naming what the
	// command does. Any other command's words may name the code it runs.
	if (depth === 0 && part.knownEffects !== true && tier !== "read") return exact;
	const words = command.text.split(" ");
	const keep: string[] = [];
	for (const word of words) {
		if (keep.length > depth) break;
		if (keep.length > 0 && word.startsWith("-")) break;
		keep.push(word);
	}
	if (keep.length === words.length) return exact;
	// An option before the subcommand (`git -C repo status`) hides what the command does: `git *` would
	// cover every git command, so the exact text is the narrowest honest choice.
	if (keep.length <= depth) return exact;
	if (keep.slice(1).some((word) => RUNS_WHAT_FOLLOWS.has(word))) return exact;
	const prefix = keep.join(" ");
	return wildcardLiteral(prefix) ? `${prefix} *` : null;
}

/** `/work/src/*` for `/work/src/a.ts`; glob characters in the directory name are escaped, so they stay literal. */
function directoryPattern(absolute: string): string {
	const parent = dirname(absolute);
	// The root has no parent: `/*` would not cover `/` itself, so the root is named exactly.
	if (parent === absolute) return absolute;
	const dir = globLiteral(parent);
	return dir.endsWith("/") ? `${dir}*` : `${dir}/*`;
}

function wildcardLiteral(text: string): boolean {
	return !text.includes("*");
}
