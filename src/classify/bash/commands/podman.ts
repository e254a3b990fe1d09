/**
 * podman: docker's subcommands and container flags (commands/docker.ts) behind global options of its own. Never
 * proven read; it names no local paths.
 */
import type { CommandSpec } from "./command-spec.ts";
import { refineDocker, unwrapDocker } from "./docker.ts";
import { opts } from "./option-notation.ts";

export const PODMAN: CommandSpec = {
	globalOptions: opts("--url=", "--connection=", "-c= --root=", "--runroot=", "--log-level="),
	refine: refineDocker,
	paths: { operands: "none" },
	unwrap: unwrapDocker,
};
