/**
 * Writes docs/configuration.md from the zod config schemas. Run: `npm run docs` (node 22 strips the types).
 * The file is committed; a test fails when it drifts from the schemas.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFIG_REFERENCE_FILE, renderConfigReference } from "./config-reference/config-reference.ts";

const target = join(dirname(fileURLToPath(import.meta.url)), "..", CONFIG_REFERENCE_FILE);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderConfigReference());
console.log(`wrote ${CONFIG_REFERENCE_FILE}`);
