/**
 * cargo: building, testing and running compile and run the project's code (write); fetching, installing and
 * publishing reach the network. Its global options, and a toolchain selector (`+nightly`), are skipped to find
 * the subcommand.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const CARGO_TIERS = [
	...rows("write", [
		"cargo build *",
		"cargo test *",
		"cargo check *",
		"cargo run *",
		"cargo clippy *",
		"cargo fmt *",
		"cargo doc *",
		"cargo bench *",
		"cargo clean *",
	]),
	...rows("network-egress", [
		"cargo install *",
		"cargo add *",
		"cargo update *",
		"cargo fetch *",
		"cargo publish *",
	]),
];

export const CARGO: CommandSpec = {
	tiers: CARGO_TIERS,
	globalOptions: opts("--manifest-path=", "--config=", "-Z=", "--color="),
	plusGlobalOptions: true,
};
