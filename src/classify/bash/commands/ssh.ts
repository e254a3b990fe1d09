/**
 * ssh: it connects to another machine (network-egress), and the words after the host are shell code run there,
 * classified on their own but with remote paths. Options that name a local command (`ProxyCommand`,
 * `LocalCommand`, `KnownHostsCommand`) make it privileged; scp and sftp take them too.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { fromFirstOperand, scanWords, type Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

/** ssh's options that take a value (every other letter is a flag). */
const SSH_VALUE = valueTaking(
	opts(
		"-B=",
		"-b=",
		"-c=",
		"-D=",
		"-E=",
		"-e=",
		"-F=",
		"-I=",
		"-i=",
		"-J=",
		"-L=",
		"-l=",
		"-m=",
		"-O=",
		"-o=",
		"-p=",
		"-Q=",
		"-R=",
		"-S=",
		"-W=",
		"-w=",
	),
);

export function refineSsh(args: readonly string[]): TierRaise | undefined {
	return args.some((arg) => /(proxycommand|localcommand|knownhostscommand)/i.test(arg))
		? { tier: "privileged", reason: "the ssh options run a local command" }
		: undefined;
}

function unwrapSsh(args: readonly BashWord[]): Unwrapped {
	const scanned = scanWords(args, SSH_VALUE);
	const [host, ...remote] = fromFirstOperand(args, scanned);
	const where = host?.text ?? "a remote host";
	const floor: TierRaise = { tier: "network-egress", reason: `runs on ${where} over ssh` };
	return {
		self: { tier: "network-egress", reason: `ssh connects to ${where}` },
		inner:
			remote.length === 0 ? [] : [{ kind: "shell", code: remote, via: `ssh ${where}`, floor, remote: true }],
	};
}

export const SSH: CommandSpec = {
	tiers: rows("network-egress", ["ssh *"]),
	refine: refineSsh,
	paths: { operands: "none" },
	unwrap: unwrapSsh,
};
