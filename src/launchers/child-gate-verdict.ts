import type { GatePackage } from "./gate-package.ts";

/** The one settings change that puts the gate into the children, named exactly. */
export interface SettingsFix {
	/** The file to edit. */
	readonly file: string;
	/** Where in it: a JSON path (`subagents.defaultExtensions`, `packages`) or an agent file's frontmatter field. */
	readonly field: string;
	/** The entry to add to that list: this package's directory. */
	readonly add: string;
	/** The change in one sentence, for dialogs, block reasons and `doctor`. */
	readonly text: string;
}

export type ChildGateVerdict =
	/** `via`: which setting loads the gate in the children, in words. */
	| { readonly gated: true; readonly via: string }
	/** `why`: what the children would load instead, in words. */
	| { readonly gated: false; readonly why: string; readonly fix: SettingsFix };

/** What to add: this copy's directory, or a description when the copy cannot be located. */
export function gateEntry(gate: GatePackage | null): string {
	return gate?.root ?? "<the pi-permission-hub package directory>";
}

export function settingsFix(file: string, field: string, gate: GatePackage | null, note = ""): SettingsFix {
	const add = gateEntry(gate);
	const where = field.endsWith(":") ? `the \`${field}\` list of ${file}` : `\`${field}\` in ${file}`;
	return { file, field, add, text: `add ${JSON.stringify(add)} to ${where}${note}` };
}
