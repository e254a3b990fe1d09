/**
 * A session's permission mode (adr/0023): one switch over how its asks are answered, on top of the policy. Not
 * to be confused with a tier's mode (`auto` / `ask` / `deny`), which the policy sets per tier.
 */

export const PERMISSION_MODES = [
	"default",
	"plan",
	"accept-edits",
	"sandboxed",
	"dont-ask",
	"trusted",
] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: unknown): value is PermissionMode {
	return typeof value === "string" && (PERMISSION_MODES as readonly string[]).includes(value);
}

/** The key that cycles the modes (free among pi's own bindings). */
export const PERMISSION_MODE_SHORTCUT = "alt+m";

/** `pi --permission-mode <mode>`. */
export const PERMISSION_MODE_FLAG = "permission-mode";

/** What the model is told in plan mode (added to the system prompt). */
export const PLAN_MODE_PROMPT =
	"Permission mode: plan. Only read-only tools and commands run in this session; every write, edit, or other change is refused without asking. Investigate with reads, then present a plan for the user to approve instead of making changes.";

/** What each mode does, in the words the status line, `/permissions` and the flag's help use. */
export const PERMISSION_MODE_MEANINGS: Readonly<Record<PermissionMode, string>> = {
	default: "the policy decides; asks go to a human",
	plan: "only reads run, everything else is refused without asking",
	"accept-edits":
		"file edits inside the project run without asking (the file tools, touch, mkdir, cp, mv, sed -i, redirects); programs ask",
	sandboxed:
		"as accept-edits, and any command up to destructive runs without asking inside the sandbox (project writes, no network); with no sandbox running, programs ask",
	"dont-ask": "every ask is refused without asking (for unattended runs)",
	trusted:
		"asks up to destructive are allowed without asking, a program only inside the sandbox; writes outside the project, privileged calls, deny rules and the gate's own files still hold",
};

/**
 * The modes the shortcut cycles through: the loud ones (`dont-ask`, `trusted`) and `sandboxed` (which depends on
 * a sandbox being able to run) are only ever chosen by name.
 */
const CYCLE: readonly PermissionMode[] = ["default", "accept-edits", "plan"];

export function nextPermissionMode(current: PermissionMode): PermissionMode {
	const at = CYCLE.indexOf(current);
	return CYCLE[(at + 1) % CYCLE.length] ?? "default";
}
