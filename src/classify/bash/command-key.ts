/**
 * The text the built-in tier table is matched against: the command's basename followed by its arguments, with
 * the global options some tools accept before their subcommand removed, so `git -C repo push -f` is looked up
 * as `git push -f`. Config rules still see the command's real text.
 */
import { ownEntry } from "../own-entry.ts";
import { scanArgs, valueSet } from "./option-scan.ts";

const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
	git: valueSet("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"),
	npm: valueSet("--prefix", "--workspace", "-w", "--userconfig", "--cache", "--registry", "--loglevel"),
	pnpm: valueSet("-C", "--dir", "--filter", "-F", "--loglevel"),
	yarn: valueSet("--cwd"),
	bun: valueSet("--cwd", "-c", "--config"),
	cargo: valueSet("--manifest-path", "--config", "-Z", "--color"),
	docker: valueSet(
		"-H",
		"--host",
		"--context",
		"-c",
		"--config",
		"-l",
		"--log-level",
		"--tlscacert",
		"--tlscert",
		"--tlskey",
	),
	podman: valueSet("--url", "--connection", "-c", "--root", "--runroot", "--log-level"),
	kubectl: valueSet(
		"-n",
		"--namespace",
		"--context",
		"--kubeconfig",
		"--cluster",
		"--user",
		"-s",
		"--server",
		"--token",
		"--as",
		"--as-group",
		"--request-timeout",
	),
	helm: valueSet(
		"-n",
		"--namespace",
		"--kube-context",
		"--kubeconfig",
		"--registry-config",
		"--repository-config",
	),
	terraform: valueSet(),
	tofu: valueSet(),
	gh: valueSet("-R", "--repo"),
};

export function tableKey(name: string, args: readonly string[]): string {
	return [name, ...withoutGlobalOptions(name, args)].join(" ");
}

/** The arguments from the subcommand on, for tools with global options (`git -C x push -f` → `push -f`). */
export function withoutGlobalOptions(name: string, args: readonly string[]): readonly string[] {
	const withValue = ownEntry(GLOBAL_VALUE_OPTIONS, name);
	if (withValue === undefined || args.length === 0) return args;
	// `cargo +nightly build`: a toolchain selector is a global option too.
	const optionLike = args.map((arg) => (name === "cargo" && arg.startsWith("+") ? `-${arg}` : arg));
	const { operands } = scanArgs(optionLike, { withValue, stopAtOperand: true });
	const first = operands[0];
	return first === undefined ? args : args.slice(first);
}
