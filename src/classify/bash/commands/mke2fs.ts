/**
 * mke2fs: destructive: it deletes or overwrites data beyond easy recovery. Never proven read.
 */
import { type CommandSpec, rows } from "./command-spec.ts";

const MKE2FS_TIERS = [...rows("destructive", ["mke2fs *"])];

export const MKE2FS: CommandSpec = { tiers: MKE2FS_TIERS };
