/**
 * helm: it talks to a cluster (network-egress at least); installing or upgrading a release spends, uninstalling
 * destroys. Its global options are skipped to find the subcommand.
 */
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts } from "./option-notation.ts";

const HELM_TIERS = [
	...rows("network-egress", ["helm *"]),
	...rows("spend", ["helm install *", "helm upgrade *", "helm rollback *"]),
	...rows("destructive", ["helm uninstall *", "helm delete *"]),
];

export const HELM: CommandSpec = {
	tiers: HELM_TIERS,
	globalOptions: opts(
		"-n= --namespace=",
		"--kube-context=",
		"--kubeconfig=",
		"--registry-config=",
		"--repository-config=",
	),
};
