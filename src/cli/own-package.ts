/**
 * The package this command runs from: where it is and its version. src/cli and dist/cli both sit two levels
 * below the package directory.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "../vocabulary/zod.ts";

/** The directory of the package: the copy of the gate the doctor can point settings at when the agent dir has none. */
export function ownPackageRoot(): string {
	return fileURLToPath(new URL("../..", import.meta.url)).replace(/[\\/]$/, "");
}

const packageSchema = z.object({ name: z.string(), version: z.string() });

/** The installed package's name and version, from its package.json. */
export function packageVersion(): { readonly name: string; readonly version: string } {
	const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
	return packageSchema.parse(JSON.parse(text));
}
