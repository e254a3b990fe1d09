import { readFileSync } from "node:fs";
import { z } from "zod";

const packageSchema = z.object({ name: z.string(), version: z.string() });

/** The installed package's name and version (package.json sits two levels up from src/cli and dist/cli). */
export function packageVersion(): { readonly name: string; readonly version: string } {
	const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
	return packageSchema.parse(JSON.parse(text));
}
