/**
 * The read-only entries of the commands not yet in a file of their own (commands/): the interpreters and
 * downloaders whose wrappers and paths are still in wrappers.ts and command-paths.ts, proven read only as
 * `--version`/`--help` alone. Every other read-only command's entry is in its file (adr/0003); a command, option
 * or spelling no entry lists is not proven read-only, so it is at least `write` (read-proof.ts).
 */
import { versionOnly } from "./commands/read-only-helpers.ts";
import type { ReadOnlyCommand } from "./read-only-spec.ts";

/**
 * `tool --version` (or `--help`) alone, exactly: nothing else of these tools is proven read-only here. A short
 * spelling counts only where the tool documents it as the version (`python -v` is verbose mode and then runs
 * the program on standard input). Left out on purpose: launchers that read the project before printing a
 * version, so a repository decides what runs (`cargo`/`rustc`/`rustup` read `rust-toolchain.toml`, whose `path`
 * names the program; `yarn` runs the file `.yarnrc`'s `yarn-path` names; `pnpm`, `go`, `uv`, `bun` and `deno`
 * may download and run the version the project pins; `npm` reads the project's `.npmrc`, which can point it at
 * any host, and writes logs), and `gh`, which checks for updates over the network.
 */
const VERSION_TOOLS: Readonly<Record<string, readonly string[]>> = {
	node: ["-v"],
	python: ["-V"],
	python3: ["-V"],
	ruby: [],
	perl: ["-v"],
	php: ["-v"],
};

export const READ_ONLY_COMMANDS: Readonly<Record<string, ReadOnlyCommand>> = {
	...Object.fromEntries(Object.entries(VERSION_TOOLS).map(([tool, short]) => [tool, versionOnly(short)])),
};
