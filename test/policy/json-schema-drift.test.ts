import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JSON_SCHEMA_FILES, renderConfigJsonSchemas } from "../../src/policy/config-json-schema.ts";

const SCHEMA_DIR = join(import.meta.dirname, "..", "..", "schema");

describe("published JSON Schemas", () => {
	const rendered = renderConfigJsonSchemas();

	it.each(Object.values(JSON_SCHEMA_FILES))("schema/%s matches the zod schema", (name) => {
		const committed = readFileSync(join(SCHEMA_DIR, name), "utf8");
		if (committed !== rendered[name]) {
			expect.fail(`schema/${name} is out of date with src/policy/config-schema.ts: run npm run schema`);
		}
	});

	it("carries descriptions, rejects unknown keys, and forbids user-only keys in the project schema", () => {
		const user = JSON.parse(rendered[JSON_SCHEMA_FILES.user] ?? "{}");
		const project = JSON.parse(rendered[JSON_SCHEMA_FILES.project] ?? "{}");
		expect(user.additionalProperties).toBe(false);
		expect(user.properties.rules.items.additionalProperties).toBe(false);
		for (const [key, property] of Object.entries<{ description?: string }>(user.properties)) {
			expect(property.description, `${key} has a description`).toBeTruthy();
		}
		expect(user.properties.grantCeiling.properties.tier.enum).toContain("destructive");
		expect(project.properties.grantCeiling.not).toEqual({});
		expect(project.properties.authorizerChain.not).toEqual({});
	});
});
