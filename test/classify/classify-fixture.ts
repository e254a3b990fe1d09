/** Shared setup for the classify tests: the real bash parser and a classifier with no operator config. */
import { vi } from "vitest";
import type { ClassifiedAction } from "../../src/classify/action.ts";
import { type BashParser, loadBashParser } from "../../src/classify/bash/bash-parser.ts";
import type { CommandTierEntry } from "../../src/classify/bash/command-tier-table.ts";
import { type ClassifyDeps, classifyAction } from "../../src/classify/classify-action.ts";

export const HOME = "/home/tester";
export const CWD = "/work/project";

let parser: BashParser | undefined;

export async function bashParser(): Promise<BashParser> {
	parser ??= parsingWithTheClockStill(await loadBashParser());
	return parser;
}

/**
 * The parser gives up on a command that takes longer than its wall-clock budget to parse. On a loaded machine
 * any parse can overrun it (the process is simply not scheduled), and a test would see that refusal instead of
 * the classification it checks. The tests' parser holds the clock still while it parses: the tests check what a
 * command is classified as; how long that takes is bench figures 1 and 8.
 */
function parsingWithTheClockStill(bash: BashParser): BashParser {
	return {
		loadMs: bash.loadMs,
		parse(source) {
			const still = vi.spyOn(performance, "now").mockReturnValue(performance.now());
			try {
				return bash.parse(source);
			} finally {
				still.mockRestore();
			}
		},
	};
}

export function depsFor(bash: BashParser, overrides: Partial<ClassifyDeps> = {}): ClassifyDeps {
	return {
		bash,
		extraCommandTiers: [],
		toolTiers: {},
		toolAnnotations: () => undefined,
		homeDir: HOME,
		agentDir: `${HOME}/.pi/agent`,
		...overrides,
	};
}

export function classifyBash(
	bash: BashParser,
	command: string,
	options: { cwd?: string; extraCommandTiers?: readonly CommandTierEntry[] } = {},
): ClassifiedAction {
	return classifyAction(
		{ tool: "bash", input: { command }, cwd: options.cwd ?? CWD },
		depsFor(bash, { extraCommandTiers: options.extraCommandTiers ?? [] }),
	);
}

export function unitTexts(action: ClassifiedAction): string[] {
	return action.parts.flatMap((part) => (part.command === undefined ? [] : [part.command.text]));
}

export function partFor(action: ClassifiedAction, text: string) {
	const part = action.parts.find((candidate) => candidate.command?.text === text);
	if (part === undefined) {
		throw new Error(`no unit "${text}" in ${JSON.stringify(unitTexts(action))}`);
	}
	return part;
}
