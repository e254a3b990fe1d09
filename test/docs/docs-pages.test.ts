/**
 * The pages under docs/ against the code they describe: the CLI reference is the commands' own help, the doctor
 * page lists every finding, and every relative link of README.md and docs/ leads to a file that exists.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
	CLI_REFERENCE_FILE,
	renderCommandReference,
	withFreshReference,
} from "../../scripts/cli-reference.ts";
import { FINDING_SEVERITY } from "../../src/cli/doctor/finding.ts";
import { COMMANDS } from "../../src/cli/main.ts";
import { REPO_ROOT } from "../harness/paths.ts";

const read = (file: string): string => readFileSync(path.join(REPO_ROOT, file), "utf8");
const PAGES = [
	"README.md",
	...readdirSync(path.join(REPO_ROOT, "docs")).map((name) => path.join("docs", name)),
];

describe("docs/cli.md", () => {
	it("carries every command's help as the CLI prints it (npm run docs refreshes it)", () => {
		const page = read(CLI_REFERENCE_FILE);
		if (page !== withFreshReference(page)) {
			expect.fail(`${CLI_REFERENCE_FILE} is out of date with the commands in src/cli/: run npm run docs`);
		}
		const reference = renderCommandReference();
		for (const command of COMMANDS) expect(reference).toContain(command.help);
	});
});

describe("docs/doctor.md", () => {
	it("lists every finding the doctor can report, with its severity", () => {
		const page = read(path.join("docs", "doctor.md"));
		for (const [id, severity] of Object.entries(FINDING_SEVERITY)) {
			expect(page, id).toMatch(new RegExp(`^\\| [^|]*\`${id}\`[^|]*\\| ${severity} `, "m"));
		}
	});
});

describe("links between the pages", () => {
	it.each(PAGES)("every relative link of %s leads to an existing file", (page) => {
		const text = read(page).replace(/^```[\s\S]*?^```$/gm, "");
		const targets = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
			.map((m) => m[1] ?? "")
			.filter((target) => !/^[a-z]+:/.test(target));
		for (const target of targets) {
			expect(existsSync(path.join(REPO_ROOT, path.dirname(page), target)), `${page} → ${target}`).toBe(true);
		}
	});
});
