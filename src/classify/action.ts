import type { Tier } from "../vocabulary/tier.ts";

/** A path the gate guards for itself (adr/0014), found by guarded-paths.ts. */
export interface PathGuard {
	/** `human`: it asks a human, whatever rules, grants or links say; `refuse`: it is denied. */
	readonly kind: "human" | "refuse";
	readonly reason: string;
}

/** One tool call as pi hands it to the gate. */
export interface ToolCall {
	readonly tool: string;
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd: string;
}

export type PathAccess = "read" | "write";

/** A path an action reads or writes, in every form a path rule may name it. */
export interface PathTouch {
	readonly access: PathAccess;
	/** As written in the input (for messages). */
	readonly typed: string;
	/** `~` expanded, made absolute against the effective cwd, normalized. */
	readonly absolute: string;
	/** `absolute` with symlinks resolved (the longest existing prefix is realpath'd). */
	readonly resolved: string;
	/** True when either form lies outside the session cwd. */
	readonly outsideCwd: boolean;
	/** Set when the path is one the gate guards for itself (guarded-paths.ts). */
	readonly guard?: PathGuard;
}

/** One simple command found anywhere in a bash program, after unwrapping wrappers. */
export interface CommandUnit {
	/** Words joined by single spaces: what `command` rules match against. */
	readonly text: string;
	/** Basename of the command word (`/usr/bin/rm` → `rm`). */
	readonly name: string;
	readonly argv: readonly string[];
	/** Every word is a literal (no expansion, substitution or glob the parser could not resolve). */
	readonly literal: boolean;
	/** Constructs and wrappers around this command, outermost first, e.g. `["$(…)", "sudo"]`. */
	readonly via: readonly string[];
}

/** A piece of an action that is evaluated on its own; the action takes the strictest result over its parts. */
export interface ActionPart {
	readonly tier: Tier;
	/** Why this part has its tier, in words for dialogs and logs ("built-in: rm is destructive"). */
	readonly tierReason: string;
	readonly command?: CommandUnit;
	readonly paths: readonly PathTouch[];
	/**
	 * Set when every effect of the command is reading or writing the paths listed, each known before it runs:
	 * a command whose whole behaviour the classifier knows (`touch`, `mkdir`, `cp`, `mv`, `tee`,
	 * `sed -i`) or a read-only one whose output is redirected. Path rules then allow its writes, as they allow
	 * the write tool's; a command with effects beyond its paths is allowed only by a command rule.
	 */
	readonly knownEffects?: true;
	/**
	 * Set when every effect of the command is on the paths listed, each known before it runs, at whatever tier:
	 * the `knownEffects` commands, a proven read, and the removers (`rm`, `rmdir`, `unlink`). Nothing else runs:
	 * a permission mode may let it through where no sandbox contains it (adr/0023).
	 */
	readonly onlyPathEffects?: true;
	/** The strictest guard of its paths: only a human may allow it, or it is refused (guarded-paths.ts). */
	readonly guard?: PathGuard;
	/** The command starts pi: a delegation the gate cannot prove gated, never excluded from the sandbox (adr/0011). */
	readonly startsPi?: true;
}

export interface ClassifiedAction {
	readonly tool: string;
	/** Canonical input (what the hash covers). */
	readonly input: Readonly<Record<string, unknown>>;
	readonly cwd: string;
	/** Most restrictive tier over all parts. */
	readonly tier: Tier;
	readonly parts: readonly ActionPart[];
	/** SHA-256 (hex) of the canonical action: tool, canonical input, cwd, tier. */
	readonly hash: string;
	/** Human-readable preview with secrets redacted (bash command, path, diff size). */
	readonly preview: string;
}
