/**
 * pnpm: installing reaches the registry (network-egress), scripts run the project's code (write); `pnpm dlx`
 * fetches a package and runs it, `pnpm exec` runs a local command.
 */
import { afterGlobalOptions } from "../option-scan.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { NPX_VALUE, subcommandRunner } from "./package-runners.ts";

/** pnpm's options before its subcommand. */
const PNPM_GLOBAL_OPTIONS = opts("-C=", "--dir=", "--filter=", "-F=", "--loglevel=");
const PNPM_GLOBAL_VALUE = valueTaking(PNPM_GLOBAL_OPTIONS);

const PNPM_TIERS = [
	...rows("write", ["pnpm *", "pnpm run *", "pnpm test *", "pnpm build *", "pnpm remove *"]),
	...rows("network-egress", [
		"pnpm install *",
		"pnpm i *",
		"pnpm add *",
		"pnpm update *",
		"pnpm up *",
		"pnpm publish *",
		"pnpm dlx *",
		"pnpm audit *",
	]),
];

export const PNPM: CommandSpec = {
	tiers: PNPM_TIERS,
	globalOptions: PNPM_GLOBAL_OPTIONS,
	unwrap: subcommandRunner({ fetches: { dlx: NPX_VALUE }, local: ["exec"] }, (args) =>
		afterGlobalOptions(args, PNPM_GLOBAL_VALUE),
	),
};
