/**
 * kubectl: it talks to a cluster (network-egress at least; creating or scaling resources spends, deleting
 * destroys). Its global options are skipped to find the subcommand; `kubectl exec pod -- cmd` runs cmd inside
 * a pod, with remote paths.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { afterGlobalOptions } from "../option-scan.ts";
import { argvInner, inContainer, type Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";

/** kubectl's options before its subcommand. */
const KUBECTL_GLOBAL_OPTIONS = opts(
	"-n= --namespace=",
	"--context=",
	"--kubeconfig=",
	"--cluster=",
	"--user=",
	"-s= --server=",
	"--token=",
	"--as=",
	"--as-group=",
	"--request-timeout=",
);
const KUBECTL_GLOBAL_VALUE = valueTaking(KUBECTL_GLOBAL_OPTIONS);
/** The options of `kubectl exec` that take a value. */
const EXEC_VALUE = valueTaking(opts("-c= --container=", "-n= --namespace=", "--context=", "-f= --filename="));

const KUBECTL_TIERS = [
	...rows("write", ["kubectl config *"]),
	...rows("network-egress", ["kubectl *", "kubectl cp *", "kubectl port-forward *", "kubectl proxy *"]),
	...rows("spend", [
		"kubectl apply *",
		"kubectl create *",
		"kubectl scale *",
		"kubectl autoscale *",
		"kubectl run *",
		"kubectl expose *",
		"kubectl patch *",
		"kubectl replace *",
		"kubectl set *",
		"kubectl edit *",
		"kubectl rollout *",
	]),
	...rows("destructive", ["kubectl delete *", "kubectl drain *"]),
];

function unwrapKubectl(args: readonly BashWord[]): Unwrapped | undefined {
	const texts = args.map((word) => word.text);
	const offset = args.length - afterGlobalOptions(texts, KUBECTL_GLOBAL_VALUE).length;
	if (texts[offset] !== "exec") return undefined;
	const rest = args.slice(offset + 1);
	const dashes = rest.findIndex((word) => word.text === "--");
	const floor: TierRaise = { tier: "network-egress", reason: "runs inside a cluster pod" };
	if (dashes !== -1)
		return { inner: argvInner(rest.slice(dashes + 1), "kubectl exec", { floor, remote: true }) };
	return inContainer(rest, EXEC_VALUE, "kubectl exec", "network-egress");
}

export const KUBECTL: CommandSpec = {
	tiers: KUBECTL_TIERS,
	globalOptions: KUBECTL_GLOBAL_OPTIONS,
	paths: { operands: "none" },
	unwrap: unwrapKubectl,
};
