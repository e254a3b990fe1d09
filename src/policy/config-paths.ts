/** Where the config files live. Pure functions: the caller passes environment and home directory. */
import { join, resolve } from "node:path";

/** `~` or `~/…` → under `homeDir`; anything else unchanged. */
export function expandHome(path: string, homeDir: string): string {
	if (path === "~") return homeDir;
	if (path.startsWith("~/")) return join(homeDir, path.slice(2));
	return path;
}

/** pi's agent directory: `$PI_CODING_AGENT_DIR` (a leading `~` expanded) when set, else `~/.pi/agent`. */
export function resolveAgentDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
	const configured = env.PI_CODING_AGENT_DIR;
	if (configured !== undefined && configured !== "") return resolve(expandHome(configured, homeDir));
	return join(homeDir, ".pi", "agent");
}

export function userConfigPath(agentDir: string): string {
	return join(agentDir, "pi-permission-hub", "config.json");
}

/**
 * The managed layer (adr/0024): `$PI_PERMISSION_HUB_MANAGED_CONFIG` when set, else the system-wide file. Read by
 * every session and command; a missing file is no managed layer.
 */
export function managedConfigPath(env: Readonly<Record<string, string | undefined>>): string {
	const configured = env.PI_PERMISSION_HUB_MANAGED_CONFIG;
	return configured !== undefined && configured !== ""
		? resolve(configured)
		: "/etc/pi-permission-hub/config.json";
}

export function projectConfigPath(cwd: string): string {
	return join(cwd, ".pi", "pi-permission-hub.json");
}
