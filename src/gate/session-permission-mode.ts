/**
 * Which permission mode a session is in (adr/0023): the one chosen in it (the `--permission-mode` flag,
 * `/permissions mode`, the shortcut), else the user config's `defaultMode` — always within what the managed
 * layer allows (adr/0024). Pure: `SessionGate` keeps the choice and asks these functions what it means.
 */
import type { EffectivePolicy } from "../policy/effective-policy.ts";
import {
	isPermissionMode,
	PERMISSION_MODE_FLAG,
	PERMISSION_MODES,
	type PermissionMode,
} from "../vocabulary/permission-mode.ts";

/** What of the policy decides a session's mode. */
export type ModePolicy = Pick<EffectivePolicy, "defaultMode" | "allowedModes">;

/**
 * The session's permission mode: `chosen`, else the config's `defaultMode`, else `default` — and a mode the
 * managed layer forbids gives way to `default`, or to the first mode it allows.
 */
export function sessionPermissionMode(chosen: PermissionMode | null, policy: ModePolicy): PermissionMode {
	const wanted = chosen ?? policy.defaultMode ?? "default";
	const allowed = policy.allowedModes;
	if (allowed === null || allowed.includes(wanted)) return wanted;
	return allowed.includes("default") ? "default" : (allowed[0] ?? "default");
}

/** Why `mode` cannot be chosen in this session (the managed layer forbids it), or null when it can. */
export function permissionModeRefusal(mode: PermissionMode, policy: ModePolicy): string | null {
	const allowed = policy.allowedModes;
	return allowed !== null && !allowed.includes(mode)
		? `the managed config allows only ${allowed.join(", ")}`
		: null;
}

/** What `--permission-mode` chose, and the warning the human must hear about it (null: none). */
export interface FlagChoice {
	/** The mode chosen; null when the flag was not given, and the config's `defaultMode` holds. */
	readonly chosen: PermissionMode | null;
	readonly warning: string | null;
}

/**
 * `--permission-mode` as given. A value that names no mode must not leave the session wider than meant, so it
 * starts in `plan` (the narrowest) and says why; a mode the managed layer forbids is chosen (and clamped), and
 * the human is told which mode holds instead.
 */
export function permissionModeFromFlag(value: boolean | string | undefined, policy: ModePolicy): FlagChoice {
	if (value === undefined || value === "") return { chosen: null, warning: null };
	if (isPermissionMode(value)) {
		const holds = sessionPermissionMode(value, policy);
		return {
			chosen: value,
			warning:
				holds === value
					? null
					: `pi-permission-hub: --${PERMISSION_MODE_FLAG} ${value} is not allowed by the managed config; this session is in ${holds} mode.`,
		};
	}
	return {
		chosen: "plan",
		warning: `pi-permission-hub: --${PERMISSION_MODE_FLAG} ${String(value)} names no mode (${PERMISSION_MODES.join(", ")}); this session starts in plan mode instead.`,
	};
}
