#!/usr/bin/env node
// The CLI ships compiled (tsc → dist/): this file only checks the Node version and loads dist/cli/main.js.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
	process.stderr.write(`pi-permission-hub needs Node.js 22.19 or newer (this is ${process.version}).\n`);
	process.exit(2);
}

const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
	process.stderr.write(
		`pi-permission-hub: the compiled CLI is missing (${fileURLToPath(main)}). Run \`npm run build\` in the package directory.\n`,
	);
	process.exit(2);
}

const { runFromProcess } = await import(main.href);
await runFromProcess();
