/**
 * Load-time warnings for `allow` rules that look broader than they act: an allow can auto-approve only actions
 * within the grant ceiling, so a rule that matches well-known higher-tier commands will still ask for those.
 * The samples are typical tiers, not the classifier's verdict; they exist to explain, not to decide.
 */

import { type Tier, withinCeiling } from "../vocabulary/tier.ts";
import type { PolicyWarning } from "./effective-policy.ts";
import type { PolicyRule } from "./policy-rule.ts";

const ABOVE_WRITE_SAMPLES: readonly (readonly [command: string, tier: Tier])[] = [
	["rm -rf build", "destructive"],
	["sudo true", "privileged"],
	["curl https://example.com", "network-egress"],
	["wget https://example.com", "network-egress"],
	["ssh host", "network-egress"],
	["scp file host:file", "network-egress"],
	["git push", "network-egress"],
	["git push --force origin main", "destructive"],
	["dd if=/dev/zero of=disk.img", "destructive"],
	["mkfs /dev/sdb1", "destructive"],
	["kubectl delete pod web", "destructive"],
	["terraform apply", "destructive"],
	["npm publish", "network-egress"],
	["docker run image", "privileged"],
];

/** `bash` runs whatever it is given, up to the highest tier. */
const BASH_TOOL = "bash";

export function allowAboveCeilingWarnings(rules: readonly PolicyRule[], ceiling: Tier): PolicyWarning[] {
	const warnings: PolicyWarning[] = [];
	for (const rule of rules) {
		if (rule.ref.action !== "allow" || rule.kind !== "wildcard") continue;
		const example =
			rule.surface === "command"
				? ABOVE_WRITE_SAMPLES.find(
						([command, tier]) => !withinCeiling(tier, ceiling) && rule.matcher.test(command),
					)?.[0]
				: !withinCeiling("privileged", ceiling) && rule.matcher.test(BASH_TOOL)
					? `the ${BASH_TOOL} tool`
					: undefined;
		if (example === undefined) continue;
		const { origin } = rule.ref;
		warnings.push({
			file: origin.file,
			jsonPath: origin.jsonPath,
			line: origin.line,
			message: `allow ${rule.surface} "${rule.ref.pattern}" can match actions above the grant ceiling (${ceiling}), e.g. ${example}; those will ask instead of running`,
		});
	}
	return warnings;
}
