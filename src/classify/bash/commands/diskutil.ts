/**
 * diskutil: by subcommand, destructive for `diskutil erase*`, `diskutil zeroDisk*`, `diskutil secureErase*`;
 * privileged for `diskutil *`. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const DISKUTIL_TIERS = [
	...rows("destructive", ["diskutil erase*", "diskutil zeroDisk*", "diskutil secureErase*"]),
	...rows("privileged", ["diskutil *"]),
];

export const DISKUTIL: CommandSpec = { tiers: DISKUTIL_TIERS };
