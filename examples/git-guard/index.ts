/**
 * An example authorizer link for pi-permission-hub: a small policy written as code.
 *
 * - `git fetch` / `git pull --ff-only` (which ask by default: they reach the network) are allowed;
 * - a push to `main` or `master`, or any forced push, is denied with a reason the model sees;
 * - everything else is deferred to the next link or the human.
 *
 * Enable it in `<agent dir>/pi-permission-hub/config.json`:  { "authorizerChain": ["git-guard"] }
 * and load this file as an extension (`pi -e examples/git-guard/index.ts`, or list it in settings.json).
 * Links only see asks: a call the policy already allows or denies never reaches them.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import {
	type AuthorizerRequest,
	type CommandUnit,
	type LinkVerdict,
	registerAuthorizer,
} from "pi-permission-hub";

const PROTECTED_BRANCHES = new Set(["main", "master"]);

export default function gitGuard(pi: ExtensionAPI): void {
	let unregister: (() => void) | null = null;
	pi.on("session_start", () => {
		unregister ??= registerAuthorizer("git-guard", decide);
	});
	pi.on("session_shutdown", () => {
		unregister?.();
		unregister = null;
	});
}

function decide(request: AuthorizerRequest): LinkVerdict {
	if (request.tool !== "bash") return { verdict: "defer" };
	const commands = request.parts.flatMap((part) => (part.command ? [part.command] : []));
	if (commands.length === 0) return { verdict: "defer" };
	const push = commands.find(isRiskyPush);
	if (push)
		return {
			verdict: "deny",
			reason: `git-guard: "${push.text}" pushes to a protected branch or forces; open a pull request instead`,
		};
	if (commands.every(isFetch))
		return { verdict: "allow", reason: "git-guard: fetching does not change the working tree" };
	return { verdict: "defer" };
}

function gitArgs(command: CommandUnit): string[] | null {
	return command.name === "git" && command.literal ? command.argv.slice(1) : null;
}

function isFetch(command: CommandUnit): boolean {
	const args = gitArgs(command);
	if (!args) return false;
	if (args[0] === "fetch") return true;
	return args[0] === "pull" && args.includes("--ff-only");
}

function isRiskyPush(command: CommandUnit): boolean {
	const args = gitArgs(command);
	if (args?.[0] !== "push") return false;
	if (
		args.some((a) => a === "-f" || a === "--force" || a.startsWith("--force-with-lease") || a.startsWith("+"))
	)
		return true;
	return args.slice(1).some((a) => !a.startsWith("-") && PROTECTED_BRANCHES.has(a.split(":").at(-1) ?? ""));
}
