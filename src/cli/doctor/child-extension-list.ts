import { classifySource } from "./extension-source.ts";
import type { FileView } from "./file-view.ts";
import { type Finding, finding } from "./finding.ts";
import { type PackageNames, pathLoadsPackage } from "./package-identity.ts";

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
	readonly names: PackageNames;
	/** The entry the doctor recommends (the gate's package directory), or null when it knows none. */
	readonly gateEntry: string | null;
	readonly view: FileView;
}

export interface ListCheck {
	/** Whether an entry certainly loads the gate in the child: an existing absolute or `~/` path to it. */
	readonly gated: boolean;
	/** Entries that fail open: missing paths, relative paths, package specs. */
	readonly warnings: readonly Finding[];
}

/**
 * Check the extension list a launcher gives its children. pi-subagents passes every entry to pi as is: a path
 * that does not exist is skipped without a word, a relative path depends on the directory the child runs in,
 * and an `npm:` / git spec is installed into a temporary directory when missing (skipped when that fails). Only
 * an existing absolute or `~/` path to the gate counts.
 */
export function checkChildExtensionList(
	entries: readonly string[],
	place: ListPlace,
	ctx: ListCheckContext,
): ListCheck {
	let gated = false;
	const warnings: Finding[] = [];
	const useInstead =
		ctx.gateEntry === null
			? "the absolute path of the pi-permission-hub directory"
			: JSON.stringify(ctx.gateEntry);
	for (const entry of entries) {
		const source = classifySource(entry, ctx.projectDir, ctx.homeDir);
		if (source.kind === "path" && source.anchored) {
			if (ctx.view.kind(source.path) === "missing") {
				warnings.push(
					finding("extension-path-missing", {
						file: place.file,
						explanation: `${place.label} in ${place.file} lists ${JSON.stringify(entry)}, which does not exist. pi skips a missing extension path without a word, so whatever it was meant to load is not in the child.`,
						fix: `correct or remove ${JSON.stringify(entry)} in ${place.label} in ${place.file}`,
					}),
				);
			} else if (pathLoadsPackage(source.path, ctx.names.gate, ctx.view)) {
				gated = true;
			}
		} else if (source.kind === "path") {
			warnings.push(
				finding("extension-path-relative", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists the relative path ${JSON.stringify(entry)}. pi resolves it against the directory each child runs in, so it loads something else (or nothing) in other directories; the doctor does not count it as the gate.`,
					fix: `use an absolute or ~/ path in ${place.label} in ${place.file} (for the gate: ${useInstead})`,
				}),
			);
		} else if (source.kind === "npm" && source.name === ctx.names.gate) {
			warnings.push(
				finding("extension-package-spec", {
					file: place.file,
					explanation: `${place.label} in ${place.file} lists ${JSON.stringify(entry)}. For a child pi installs that package into a temporary directory when it is missing, and starts the child without it when the install fails (offline, for example); the doctor does not count it as the gate.`,
					fix: `replace ${JSON.stringify(entry)} with ${useInstead} in ${place.label} in ${place.file}`,
				}),
			);
		}
	}
	return { gated, warnings };
}
