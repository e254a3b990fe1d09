/**
 * The published JSON Schemas, generated from the zod schemas the loader validates with, and the copies of them
 * the gate keeps next to the user config.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import * as z from "../vocabulary/zod.ts";
import { userConfigPath } from "./config-paths.ts";
import { ManagedConfigSchema, ProjectConfigSchema, UserConfigSchema } from "./config-schema.ts";

export const JSON_SCHEMA_FILES = {
	user: "config.schema.json",
	project: "project-config.schema.json",
	managed: "managed-config.schema.json",
} as const;

/** File name → file content (pretty, stable, trailing newline). */
export function renderConfigJsonSchemas(): Record<string, string> {
	return {
		[JSON_SCHEMA_FILES.user]: render(UserConfigSchema()),
		[JSON_SCHEMA_FILES.project]: render(ProjectConfigSchema()),
		[JSON_SCHEMA_FILES.managed]: render(ManagedConfigSchema()),
	};
}

function render(schema: z.ZodMiniType): string {
	return `${JSON.stringify(z.toJSONSchema(schema, { target: "draft-2020-12" }), null, "\t")}\n`;
}

/**
 * The JSON Schemas of the running copy of the package, kept next to the user config
 * (`<agent dir>/pi-permission-hub/config.schema.json`), so that `"$schema": "./config.schema.json"` resolves in an
 * editor however the package was installed (a checkout, a tarball folder, pi's npm directory) and describes the
 * version that validates the file. Written only when missing or different. Resolves with what it did; rejects on
 * an I/O error (the caller logs it: a missing schema copy never affects a decision).
 */
export async function refreshSchemaCopies(
	agentDir: string,
	packageRoot: string,
): Promise<"written" | "current"> {
	let wrote = false;
	const dir = dirname(userConfigPath(agentDir));
	for (const name of Object.values(JSON_SCHEMA_FILES)) {
		const shipped = await readFile(join(packageRoot, "schema", name), "utf8");
		const target = join(dir, name);
		const present = await readFile(target, "utf8").catch(() => null);
		if (present === shipped) continue;
		await mkdir(dir, { recursive: true, mode: 0o700 });
		await writeFileAtomic(target, shipped, { mode: 0o644 });
		wrote = true;
	}
	return wrote ? "written" : "current";
}
