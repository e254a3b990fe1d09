/** The published JSON Schemas, generated from the zod schemas the loader validates with. */
import { z } from "zod";
import { ProjectConfigSchema, UserConfigSchema } from "./config-schema.ts";

export const JSON_SCHEMA_FILES = {
	user: "config.schema.json",
	project: "project-config.schema.json",
} as const;

/** File name → file content (pretty, stable, trailing newline). */
export function renderConfigJsonSchemas(): Record<string, string> {
	return {
		[JSON_SCHEMA_FILES.user]: render(UserConfigSchema()),
		[JSON_SCHEMA_FILES.project]: render(ProjectConfigSchema()),
	};
}

function render(schema: z.ZodType): string {
	return `${JSON.stringify(z.toJSONSchema(schema, { target: "draft-2020-12" }), null, "\t")}\n`;
}
