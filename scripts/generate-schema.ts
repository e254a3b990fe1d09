/**
 * Writes schema/*.json from the zod config schemas. Run: `npm run schema` (node 22 strips the types).
 * The files are committed; a test fails when they drift from the schemas.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderConfigJsonSchemas } from "../src/policy/config-json-schema.ts";

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), "..", "schema");
mkdirSync(schemaDir, { recursive: true });
for (const [name, content] of Object.entries(renderConfigJsonSchemas())) {
	writeFileSync(join(schemaDir, name), content);
	console.log(`wrote schema/${name}`);
}
