/**
 * docker: everything the classifier knows about it. Its global options (skipped to find the subcommand), the
 * few read-only subcommands, the tiers of the rest, the container flags that hand the container the host, and
 * how `docker run`/`exec` and `docker compose run`/`exec` run a command inside a container (its paths are not
 * local ones). podman takes the same subcommands (commands/podman.ts); docker-compose is `docker compose`.
 */
import type { TierRaise } from "../../tier-raise.ts";
import type { BashWord } from "../bash-word.ts";
import { afterGlobalOptions, optionValues, scanArgs } from "../option-scan.ts";
import type { ReadOnlyCommand } from "../read-only-spec.ts";
import { inContainer, type Unwrapped } from "../wrapper-spec.ts";
import { type CommandSpec, rows } from "./command-spec.ts";
import { opts, valueTaking } from "./option-notation.ts";
import { HELP, none, text } from "./read-only-helpers.ts";

/** docker's options before its subcommand. */
const DOCKER_GLOBAL_OPTIONS = opts(
	"-H= --host=",
	"--context=",
	"-c= --config=",
	"-l= --log-level=",
	"--tlscacert=",
	"--tlscert=",
	"--tlskey=",
);
const DOCKER_GLOBAL_VALUE = valueTaking(DOCKER_GLOBAL_OPTIONS);

/** The arguments from the subcommand on (`-H host run img` → `run img`). */
export function afterDockerGlobalOptions(args: readonly string[]): readonly string[] {
	return afterGlobalOptions(args, DOCKER_GLOBAL_VALUE);
}

/** The options of `docker run` (and `create`) that take a value. */
const RUN_OPTIONS = opts(
	"-a= --attach=",
	"--add-host=",
	"--annotation=",
	"--blkio-weight=",
	"--blkio-weight-device=",
	"--cap-add=",
	"--cap-drop=",
	"--cgroup-parent=",
	"--cgroupns=",
	"--cidfile=",
	"--cpu-period=",
	"--cpu-quota=",
	"--cpu-rt-period=",
	"--cpu-rt-runtime=",
	"-c= --cpu-shares=",
	"--cpus=",
	"--cpuset-cpus=",
	"--cpuset-mems=",
	"--device=",
	"--device-cgroup-rule=",
	"--device-read-bps=",
	"--device-read-iops=",
	"--device-write-bps=",
	"--device-write-iops=",
	"--dns=",
	"--dns-option=",
	"--dns-search=",
	"--domainname=",
	"--entrypoint=",
	"-e= --env=",
	"--env-file=",
	"--expose=",
	"--gpus=",
	"--group-add=",
	"--health-cmd=",
	"--health-interval=",
	"--health-retries=",
	"--health-start-period=",
	"--health-timeout=",
	"-h= --hostname=",
	"--ip=",
	"--ip6=",
	"--ipc=",
	"--isolation=",
	"--kernel-memory=",
	"-l= --label=",
	"--label-file=",
	"--link=",
	"--link-local-ip=",
	"--log-driver=",
	"--log-opt=",
	"--mac-address=",
	"-m= --memory=",
	"--memory-reservation=",
	"--memory-swap=",
	"--memory-swappiness=",
	"--mount=",
	"--name=",
	"--network=",
	"--net=",
	"--network-alias=",
	"--oom-score-adj=",
	"--pid=",
	"--pids-limit=",
	"--platform=",
	"-p= --publish=",
	"--pull=",
	"--restart=",
	"--runtime=",
	"--security-opt=",
	"--shm-size=",
	"--stop-signal=",
	"--stop-timeout=",
	"--storage-opt=",
	"--sysctl=",
	"--tmpfs=",
	"--ulimit=",
	"-u= --user=",
	"--userns=",
	"--uts=",
	"-v= --volume=",
	"--volume-driver=",
	"--volumes-from=",
	"-w= --workdir=",
);
const RUN_VALUE = valueTaking(RUN_OPTIONS);
/** The options of `docker exec` that take a value. */
const EXEC_VALUE = valueTaking(
	opts("-e= --env=", "--env-file=", "-u= --user=", "-w= --workdir=", "--detach-keys="),
);
/** The options of `docker compose run` and `exec` that take a value. */
const COMPOSE_RUN_VALUE = valueTaking(
	opts(
		"-e= --env=",
		"-u= --user=",
		"-w= --workdir=",
		"--index=",
		"--name=",
		"--entrypoint=",
		"-p= --publish=",
		"-v= --volume=",
		"-l= --label=",
	),
);

const dockerFormat = opts("--format= -f=", "--filter=");
const docker: ReadOnlyCommand = {
	options: opts(...HELP, "-v"),
	operands: text,
	optionsFirst: true,
	subcommands: {
		ps: {
			options: [
				...dockerFormat,
				...opts("-a --all", "-q --quiet", "-s --size", "-n= --last=", "-l --latest", "--no-trunc"),
			],
			operands: none,
		},
		images: {
			options: [...dockerFormat, ...opts("-a --all", "-q --quiet", "--digests", "--no-trunc", "--tree")],
			operands: { kind: "text", max: 1 },
		},
		inspect: { options: opts("--format= -f=", "-s --size", "--type="), operands: text },
		logs: {
			options: opts("--details", "-f --follow", "--since=", "--until=", "-n= --tail=", "-t --timestamps"),
			operands: { kind: "text", max: 1 },
		},
		version: { options: opts("--format= -f="), operands: none },
	},
};

const DOCKER_TIERS = [
	...rows("write", [
		"docker build *",
		"docker run *",
		"docker exec *",
		"docker start *",
		"docker stop *",
		"docker restart *",
		"docker kill *",
		"docker tag *",
		"docker create *",
		"docker cp *",
		"docker compose *",
		"docker compose up *",
		"docker compose down *",
	]),
	...rows("network-egress", [
		"docker pull *",
		"docker push *",
		"docker login *",
		"docker search *",
		"docker compose pull *",
		"docker compose push *",
	]),
	...rows("destructive", [
		"docker rm *",
		"docker rmi *",
		"docker system prune *",
		"docker image prune *",
		"docker container prune *",
		"docker volume prune *",
		"docker volume rm *",
		"docker network prune *",
		"docker network rm *",
		"docker builder prune *",
		"docker image rm *",
		"docker container rm *",
	]),
];

const HOST_NAMESPACES = ["--pid", "--network", "--net", "--ipc", "--uts", "--userns"];
const SENSITIVE_MOUNT =
	/^(\/|\/(etc|proc|sys|dev|root|boot|usr|bin|sbin|lib\w*|var\/run\/docker\.sock|run\/docker\.sock)(\/.*)?)$/;

/**
 * Container flags that hand the container the host: `--privileged`, host namespaces, capabilities, `/` mounts. The
 * options are read as the unwrapper reads them, so a value (`-e A=1`) never hides a flag after it.
 */
function hostAccess(args: readonly string[], withValue: ReadonlySet<string>): TierRaise | undefined {
	const scanned = scanArgs(args, { withValue, stopAtOperand: true });
	for (const option of scanned.options) {
		if (option.name === "--privileged" || option.name === "--cap-add" || option.name === "--device") {
			return { tier: "privileged", reason: `the container runs with ${option.name}` };
		}
		if (option.name === "--security-opt" && /unconfined|disable/.test(option.value ?? "")) {
			return { tier: "privileged", reason: "the container runs without its security profile" };
		}
		if (HOST_NAMESPACES.includes(option.name) && option.value === "host") {
			return {
				tier: "privileged",
				reason: `the container shares the host's ${option.name.slice(2)} namespace`,
			};
		}
	}
	const mounts = [
		...optionValues(scanned, "-v", "--volume").map((o) => (o.value ?? "").split(":")[0] ?? ""),
		...optionValues(scanned, "--mount").map(
			(o) => /(?:^|,)(?:source|src)=([^,]*)/.exec(o.value ?? "")?.[1] ?? "",
		),
	];
	const sensitive = mounts.find((source) => SENSITIVE_MOUNT.test(source));
	return sensitive === undefined
		? undefined
		: { tier: "privileged", reason: `the container mounts the host's ${sensitive}` };
}

/** The options that take a value, for `run` and `create` (which take the same) or `exec`. */
function valuesOf(sub: string): ReadonlySet<string> {
	return sub === "exec" ? EXEC_VALUE : RUN_VALUE;
}

export function refineDocker(args: readonly string[]): TierRaise | undefined {
	const [sub = "", second = "", ...rest] = afterDockerGlobalOptions(args);
	if (sub === "run" || sub === "create" || sub === "exec")
		return hostAccess([second, ...rest], valuesOf(sub));
	if (sub === "container" && ["run", "create", "exec"].includes(second))
		return hostAccess(rest, valuesOf(second));
	if (sub === "compose" && second === "down" && (rest.includes("-v") || rest.includes("--volumes"))) {
		return { tier: "destructive", reason: "docker compose down -v deletes volumes" };
	}
	return undefined;
}

export function unwrapDocker(args: readonly BashWord[], name: string): Unwrapped | undefined {
	const texts = args.map((word) => word.text);
	const offset = args.length - afterDockerGlobalOptions(texts).length;
	const [sub, second] = texts.slice(offset);
	const after = (n: number): readonly BashWord[] => args.slice(offset + n);
	if (sub === "exec") return inContainer(after(1), EXEC_VALUE, `${name} exec`);
	if (sub === "run") return inContainer(after(1), RUN_VALUE, `${name} run`);
	if (sub === "container" && second === "exec") return inContainer(after(2), EXEC_VALUE, `${name} exec`);
	if (sub === "container" && second === "run") return inContainer(after(2), RUN_VALUE, `${name} run`);
	if (sub === "compose" && (second === "exec" || second === "run")) {
		return inContainer(after(2), COMPOSE_RUN_VALUE, `${name} compose ${second}`);
	}
	return undefined;
}

function unwrapDockerCompose(args: readonly BashWord[], name: string): Unwrapped | undefined {
	const sub = args[0]?.text;
	return sub === "exec" || sub === "run"
		? inContainer(args.slice(1), COMPOSE_RUN_VALUE, `${name} ${sub}`)
		: undefined;
}

export const DOCKER: CommandSpec = {
	readOnly: docker,
	tiers: DOCKER_TIERS,
	globalOptions: DOCKER_GLOBAL_OPTIONS,
	refine: refineDocker,
	paths: { operands: "none" },
	unwrap: unwrapDocker,
};

/** The standalone `docker-compose`: what it runs (`docker-compose run svc cmd`) is `docker compose`'s. */
export const DOCKER_COMPOSE: CommandSpec = { unwrap: unwrapDockerCompose };
