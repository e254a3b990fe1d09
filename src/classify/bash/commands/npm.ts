/**
 * npm: installing and publishing reach the registry (network-egress), scripts run the project's code (write);
 * `npm exec`/`npm x` fetch a package and run it.
 */
import { afterGlobalOptions } from "../option-scan.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { NPX_VALUE, subcommandRunner } from "./package-runners.ts";

/** npm's options before its subcommand. */
const NPM_GLOBAL_OPTIONS = opts(
	"--prefix=",
	"--workspace=",
	"-w=",
	"--userconfig=",
	"--cache=",
	"--registry=",
	"--loglevel=",
);
const NPM_GLOBAL_VALUE = valueTaking(NPM_GLOBAL_OPTIONS);

const NPM_TIERS = [
	...rows("write", [
		"npm *",
		"npm run *",
		"npm run-script *",
		"npm test *",
		"npm t *",
		"npm start *",
		"npm stop *",
		"npm restart *",
		"npm uninstall *",
		"npm remove *",
		"npm rm *",
		"npm un *",
		"npm init *",
		"npm pack *",
		"npm version *",
		"npm config set *",
		"npm config delete *",
		"npm cache *",
		"npm prune *",
		"npm dedupe *",
		"npm link *",
	]),
	...rows("network-egress", [
		"npm view *",
		"npm info *",
		"npm show *",
		"npm outdated *",
		"npm search *",
		"npm install *",
		"npm i *",
		"npm ci *",
		"npm add *",
		"npm update *",
		"npm up *",
		"npm upgrade *",
		"npm install-test *",
		"npm it *",
		"npm rebuild *",
		"npm publish *",
		"npm login *",
		"npm adduser *",
		"npm logout *",
		"npm audit *",
		"npm exec *",
		"npm x *",
		"npm dist-tag *",
		"npm access *",
		"npm owner *",
		"npm token *",
		"npm deprecate *",
	]),
	...rows("destructive", ["npm unpublish *"]),
];

export const NPM: CommandSpec = {
	tiers: NPM_TIERS,
	globalOptions: NPM_GLOBAL_OPTIONS,
	unwrap: subcommandRunner({ fetches: { exec: NPX_VALUE, x: NPX_VALUE } }, (args) =>
		afterGlobalOptions(args, NPM_GLOBAL_VALUE),
	),
};
