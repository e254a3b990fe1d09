/**
 * Rewrites the command reference region of docs/cli.md from the CLI's command specs. Run: `npm run docs`.
 * The file is committed; a test fails when it drifts from the commands.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI_REFERENCE_FILE, withFreshReference } from "./cli-reference.ts";

const target = join(dirname(fileURLToPath(import.meta.url)), "..", CLI_REFERENCE_FILE);
writeFileSync(target, withFreshReference(readFileSync(target, "utf8")));
console.log(`wrote ${CLI_REFERENCE_FILE}`);
