/**
 * bun: installing reaches the registry (network-egress), scripts run the project's code (write); `bun x` fetches
 * a package and runs it. Its inline code (`bun -e`) is read with the other interpreters (wrappers.ts).
 */
import { afterGlobalOptions } from "../option-scan.ts";
import { inlineE } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { subcommandRunner, UV_RUN_VALUE } from "./package-runners.ts";

/** bun's options before its subcommand. */
const BUN_GLOBAL_OPTIONS = opts("--cwd=", "-c=", "--config=");
const BUN_GLOBAL_VALUE = valueTaking(BUN_GLOBAL_OPTIONS);

const BUN_TIERS = [
	...rows("write", ["bun run *", "bun test *", "bun build *"]),
	...rows("network-egress", [
		"bun install *",
		"bun i *",
		"bun add *",
		"bun update *",
		"bun publish *",
		"bun x *",
	]),
];

/** `bun x pkg`: what bun's subcommands run (wrappers.ts tries its inline code first). */
const unwrapBunSubcommand = subcommandRunner({ fetches: { x: UV_RUN_VALUE } }, (args) =>
	afterGlobalOptions(args, BUN_GLOBAL_VALUE),
);

export const BUN: CommandSpec = {
	tiers: BUN_TIERS,
	globalOptions: BUN_GLOBAL_OPTIONS,
	unwrap: (args, name) => inlineE(args, name) ?? unwrapBunSubcommand(args, name),
};
