/**
 * The 500-rule policy the benchmarks decide against, written as a real user config file (JSONC, with comments)
 * and loaded through the real config loader. It mixes what operators write: a hand-written core (allowed dev
 * commands, asked publishing and deploy commands, denied destructive ones, secret paths, MCP tools) and, to reach
 * 500, the per-service rules of a large monorepo (each service's source, secrets, scripts, deploys and tools).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { userConfigPath } from "../src/policy/config-paths.ts";
import type { ConfigRule } from "../src/policy/config-schema.ts";

export const BENCH_RULE_COUNT = 500;

const CORE_RULES: readonly ConfigRule[] = [
	// Everyday development commands run without asking.
	...[
		"git status *",
		"git diff *",
		"git log *",
		"git show *",
		"git branch *",
		"git fetch *",
		"npm test *",
		"npm run build *",
		"npm run lint *",
		"npm run typecheck *",
		"pnpm test *",
		"cargo build *",
		"cargo test *",
		"go test *",
		"go build *",
		"make *",
		"ls *",
		"cat *",
		"grep *",
		"rg *",
		"jq *",
		"wc *",
		"head *",
		"tail *",
		"node --version",
	].map((pattern): ConfigRule => ({ surface: "command", pattern, action: "allow" })),
	// Publishing, pushing and deploying ask a human.
	...[
		"git push *",
		"git commit *",
		"git rebase *",
		"npm publish *",
		"docker run *",
		"docker push *",
		"kubectl apply *",
		"helm upgrade *",
		"terraform apply *",
		"curl *",
		"wget *",
		"ssh *",
		"scp *",
		"rsync *",
	].map((pattern): ConfigRule => ({ surface: "command", pattern, action: "ask" })),
	// Destructive or privileged commands are refused.
	...[
		"sudo *",
		"git push --force *",
		"git push -f *",
		"git reset --hard *",
		"git clean -fdx *",
		"rm -rf /",
		"rm -rf / *",
		"rm -rf ~ *",
		"dd *",
		"mkfs *",
		"chmod -R 777 *",
		"shutdown *",
		"terraform destroy *",
		"kubectl delete namespace *",
	].map((pattern): ConfigRule => ({ surface: "command", pattern, action: "deny", reason: "destructive" })),
	// A few patterns that open with a wildcard (every command is tried against them).
	{ surface: "command", pattern: "* --no-verify*", action: "ask", reason: "skips the hooks" },
	{ surface: "command", pattern: "*/.ssh/*", action: "deny", reason: "keys" },
	{ surface: "command", pattern: "* --insecure*", action: "ask", reason: "skips TLS checks" },
	// Secrets and system paths.
	{ surface: "read", pattern: "~/.ssh/id_*", action: "deny", reason: "private keys" },
	{ surface: "read", pattern: "**/*.pem", action: "deny", reason: "certificates and keys" },
	{ surface: "path", pattern: "**/.env", action: "deny", reason: "environment secrets" },
	{ surface: "path", pattern: "**/.env.*", action: "deny", reason: "environment secrets" },
	{ surface: "write", pattern: "~/.ssh/**", action: "deny" },
	{ surface: "write", pattern: "~/.aws/**", action: "deny" },
	{ surface: "write", pattern: "/etc/**", action: "deny" },
	{ surface: "write", pattern: ".git/hooks/**", action: "deny", reason: "hooks run code" },
	{ surface: "path", pattern: "~/.config/**", action: "ask" },
	{ surface: "path", pattern: "/var/**", action: "ask" },
	{ surface: "outside-cwd", pattern: "/tmp/**", action: "allow" },
	{ surface: "write", pattern: "src/**", action: "allow" },
	{ surface: "write", pattern: "test/**", action: "allow" },
	{ surface: "write", pattern: "docs/**", action: "allow" },
	{ surface: "write", pattern: "dist/**", action: "allow" },
	{ surface: "write", pattern: "build/**", action: "allow" },
	{ surface: "write", pattern: "*.log", action: "allow" },
	// MCP tools.
	{ surface: "tool", pattern: "mcp_github_get_*", action: "allow" },
	{ surface: "tool", pattern: "mcp_github_*", action: "ask" },
	{ surface: "tool", pattern: "mcp_shell_exec", action: "deny" },
	{ surface: "tool", pattern: "mcp_*", action: "ask" },
];

/** One monorepo service's rules, cycling through the surfaces and actions an operator would give it. */
function serviceRule(index: number): ConfigRule {
	const service = `svc-${String(Math.floor(index / 10)).padStart(3, "0")}`;
	switch (index % 10) {
		case 0:
			return { surface: "write", pattern: `services/${service}/src/**`, action: "allow" };
		case 1:
			return {
				surface: "path",
				pattern: `services/${service}/secrets/**`,
				action: "deny",
				reason: "secrets",
			};
		case 2:
			return { surface: "command", pattern: `npm run test:${service} *`, action: "allow" };
		case 3:
			return { surface: "command", pattern: `kubectl rollout restart deploy/${service} *`, action: "ask" };
		case 4:
			return { surface: "command", pattern: `kubectl delete deploy/${service} *`, action: "deny" };
		case 5:
			return { surface: "tool", pattern: `mcp_deploy_${service.replace("-", "_")}`, action: "ask" };
		case 6:
			return { surface: "read", pattern: `/srv/data/${service}/**/*.key`, action: "deny" };
		case 7:
			return { surface: "write", pattern: `services/${service}/migrations/**`, action: "ask" };
		case 8:
			return { surface: "command", pattern: `terraform apply -target=module.${service} *`, action: "ask" };
		default:
			return { surface: "outside-cwd", pattern: `/srv/cache/${service}/**`, action: "allow" };
	}
}

export function benchRules(count = BENCH_RULE_COUNT): ConfigRule[] {
	const rules = CORE_RULES.slice(0, count);
	for (let i = 0; rules.length < count; i++) rules.push(serviceRule(i));
	return rules;
}

/** The config file text: JSONC with a comment, one rule per line, as an operator would keep it. */
export function benchConfigText(rules: readonly ConfigRule[] = benchRules()): string {
	const lines = rules.map((rule, i) => `\t\t${JSON.stringify(rule)}${i === rules.length - 1 ? "" : ","}`);
	return `// pi-permission-hub benchmark policy: ${rules.length} rules\n{\n\t"rules": [\n${lines.join("\n")}\n\t]\n}\n`;
}

/** Writes the user-level config under `agentDir`; returns its path. */
export function writeBenchConfig(agentDir: string, rules: readonly ConfigRule[] = benchRules()): string {
	const file = userConfigPath(agentDir);
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, benchConfigText(rules));
	return file;
}
