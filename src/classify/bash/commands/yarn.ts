/**
 * yarn: installing reaches the registry (network-egress), scripts run the project's code (write); `yarn dlx`
 * fetches a package and runs it, `yarn exec` runs a local command.
 */
import { afterGlobalOptions } from "../option-scan.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { subcommandRunner, UV_RUN_VALUE } from "./package-runners.ts";

/** yarn's options before its subcommand. */
const YARN_GLOBAL_OPTIONS = opts("--cwd=");
const YARN_GLOBAL_VALUE = valueTaking(YARN_GLOBAL_OPTIONS);

const YARN_TIERS = [
	...rows("write", ["yarn run *", "yarn test *", "yarn build *", "yarn remove *"]),
	...rows("network-egress", [
		"yarn",
		"yarn install *",
		"yarn add *",
		"yarn upgrade *",
		"yarn up *",
		"yarn publish *",
		"yarn npm *",
		"yarn dlx *",
	]),
];

export const YARN: CommandSpec = {
	tiers: YARN_TIERS,
	globalOptions: YARN_GLOBAL_OPTIONS,
	unwrap: subcommandRunner({ fetches: { dlx: UV_RUN_VALUE }, local: ["exec"] }, (args) =>
		afterGlobalOptions(args, YARN_GLOBAL_VALUE),
	),
};
