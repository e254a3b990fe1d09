import { type ChildExtensionEntry, childExtensionEntry } from "../../launchers/child-extensions.ts";
import type { FileView } from "../../launchers/file-view.ts";
import { GATE_PACKAGE_NAME } from "../../launchers/package-manifest.ts";
import { type Finding, finding } from "./finding.ts";

/** Where an extension list of a child comes from, for the messages: its file and how to name it there. */
export interface ListPlace {
	readonly file: string;
	/** E.g. `"subagents.defaultExtensions"` or `the "extensions:" of agent "worker"`. */
	readonly label: string;
}

export interface ListCheckContext {
	/** Relative entries are resolved by pi against the child's working directory: the project being checked. */
	readonly projectDir: string;
	readonly homeDir: string;
	/** The entry the doctor recommends (the gate's package directory), or null when it knows none. */
	readonly gateEntry: string | null;
	readonly view: FileView;
}

/**
 * Whether a child started with these entries certainly loads the gate: only an existing absolute or `~/` path
 * to it counts. A relative path depends on the directory each child runs in, which the doctor does not know.
 */
export function listLoadsGate(entries: readonly string[], ctx: ListCheckContext): boolean {
	return readEntries(entries, ctx).some(certainlyGate);
}

function readEntries(entries: readonly string[], ctx: ListCheckContext): ChildExtensionEntry[] {
	return entries.map((written) => childExtensionEntry(written, ctx.projectDir, ctx.homeDir, ctx.view));
}

function certainlyGate(entry: ChildExtensionEntry): boolean {
	return entry.kind === "path" && entry.anchored && entry.loadsGate;
}

export interface ListCheck {
	/** Whether an entry certainly loads the gate in the child (see `listLoadsGate`). */
	readonly gated: boolean;
	/** Entries that fail open: missing paths, relative paths, package specs. */
	readonly warnings: readonly Finding[];
}

/** Check the extension list a launcher gives its children, and warn about each entry that fails open. */
export function checkChildExtensionList(
	entries: readonly string[],
	place: ListPlace,
	ctx: ListCheckContext,
): ListCheck {
	const useInstead =
		ctx.gateEntry === null
			? "the absolute path of the pi-permission-hub directory"
			: JSON.stringify(ctx.gateEntry);
	const read = readEntries(entries, ctx);
	const warnings = read.flatMap((entry): Finding[] => {
		const quoted = JSON.stringify(entry.written);
		if (entry.kind === "path" && entry.anchored && !entry.present) {
			return [
				finding("extension-path-missing", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists ${quoted}, which does not exist. pi skips a missing extension path without a word, so whatever it was meant to load is not in the child.`,
					fix: `correct or remove ${quoted} in ${place.label} in ${place.file}`,
				}),
			];
		}
		if (entry.kind === "path" && !entry.anchored) {
			return [
				finding("extension-path-relative", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists the relative path ${quoted}. pi resolves it against the directory each child runs in, so it loads something else (or nothing) in other directories; the doctor does not count it as the gate.`,
					fix: `use an absolute or ~/ path in ${place.label} in ${place.file} (for the gate: ${useInstead})`,
				}),
			];
		}
		if (entry.kind === "npm" && entry.name === GATE_PACKAGE_NAME) {
			return [
				finding("extension-package-spec", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists ${quoted}. For a child pi installs that package into a temporary directory when it is missing, and starts the child without it when the install fails (offline, for example); the doctor does not count it as the gate.`,
					fix: `replace ${quoted} with ${useInstead} in ${place.label} in ${place.file}`,
				}),
			];
		}
		return [];
	});
	return { gated: read.some(certainlyGate), warnings };
}
