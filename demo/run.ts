/**
 * `npm run demo`: real pi, this extension, a scripted model and a real subagent launcher, offline, in a
 * throwaway folder. Interactive by default (the terminal UI; you answer the dialogs); `--auto` plays the human
 * over RPC instead and exits non-zero when anything differs from the script, so a test can keep the demo honest.
 *
 *   node demo/run.ts [--auto] [--keep DIR] [--timeout SECONDS]
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { playAuto } from "./auto-player.ts";
import { EXIT_DELAY_ENV } from "./demo-model-extension.ts";
import { createDemoWorld, type DemoWorld, missingPrerequisites, PI_CLI } from "./demo-world.ts";
import {
	COMMANDS,
	DEMO_MODEL,
	DEMO_PROMPT,
	EXPECTED_DIALOGS,
	type ExpectedDialog,
	FILES,
	SUBAGENT_NAME,
} from "./scenario.ts";
import { printSummary } from "./summary.ts";

const USAGE = `Usage: node demo/run.ts [--auto] [--keep DIR] [--timeout SECONDS]

  --auto             play the human yourself (pi in RPC mode), print everything, exit 1 if the run
                     differs from the script
  --keep DIR         build the demo in DIR (new or empty) instead of a new temp folder
  --timeout SECONDS  --auto only: stop pi after this long (default 180)
`;

const MIN_NODE: readonly [number, number] = [22, 19];

const print = (line: string): void => {
	process.stdout.write(`${line}\n`);
};

function nodeIsRecentEnough(): boolean {
	const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
	return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

function banner(world: DemoWorld, auto: boolean): string[] {
	const answer = (d: ExpectedDialog): string =>
		auto ? `the demo answers ${d.answer.label}` : `press ${d.answer.key} (${d.answer.label})`;
	// Numbered as the model narrates them ("Step 3 of 4"); a subagent's forwarded ask belongs to the step that
	// launched it.
	const lines: string[] = [`  1. ${`read ${FILES.readme}`.padEnd(38)} runs without asking (read tier)`];
	let step = 1;
	for (const d of EXPECTED_DIALOGS) {
		if (d.requestedBy === null) {
			step++;
			lines.push(`  ${step}. ${d.step.padEnd(38)} asks (${d.tier} tier) → ${answer(d)}`);
		} else {
			lines.push(`     └ ${d.step.padEnd(35)} forwarded to you (${d.tier} tier) → ${answer(d)}`);
			lines.push(`       its dialog names who asks: "Requested by: ${d.requestedBy}"`);
		}
	}
	return [
		"pi-permission-hub demo",
		"",
		"Real pi with pi-permission-hub, a scripted model (offline, no API key) and pi's example subagent",
		`launcher, which starts the "${SUBAGENT_NAME}" subagent as a separate pi process.`,
		"",
		`Demo folder: ${world.root}`,
		`  project/   where the model works: ${FILES.readme}, ${FILES.oldLog}, ${FILES.importantDir}/`,
		`  agent/     pi's agent dir: settings.json, agents/${SUBAGENT_NAME}.md, the gate's audit log`,
		"",
		"What happens, in order:",
		...lines,
		"",
		...(auto
			? []
			: [
					"Dialog keys: y allow once · s / a / t allow for this session / subagent / tree · n deny · r deny with a reason · Esc = deny.",
					"pi closes by itself a few seconds after the last step; the audit log and the CLI come next.",
					"",
				]),
	];
}

/** False when the user cancels with Ctrl+C (readline rejects the question with an AbortError). */
async function waitForEnter(): Promise<boolean> {
	const rl = createInterface({ input: process.stdin, output: process.stdout });
	try {
		await rl.question("Press Enter to start (Ctrl+C to cancel). ");
		return true;
	} catch {
		return false;
	} finally {
		rl.close();
	}
}

/** pi owns the terminal until it exits; Ctrl+C belongs to pi then, not to this runner. */
async function runInteractive(world: DemoWorld): Promise<number> {
	const delay = process.env[EXIT_DELAY_ENV];
	const child = spawn(process.execPath, [PI_CLI, "--model", DEMO_MODEL, "--no-session", DEMO_PROMPT], {
		cwd: world.projectDir,
		env: world.env(delay === undefined ? {} : { [EXIT_DELAY_ENV]: delay }),
		stdio: "inherit",
	});
	const ignore = (): void => {};
	process.on("SIGINT", ignore);
	try {
		return await new Promise<number>((resolve) => {
			child.once("error", (error) => {
				print(`Could not start pi: ${error.message}`);
				resolve(2);
			});
			child.once("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
		});
	} finally {
		process.off("SIGINT", ignore);
	}
}

async function main(): Promise<number> {
	const { values } = parseArgs({
		options: {
			auto: { type: "boolean", default: false },
			keep: { type: "string" },
			timeout: { type: "string", default: "180" },
			help: { type: "boolean", short: "h", default: false },
		},
		strict: true,
	});
	if (values.help) {
		process.stdout.write(USAGE);
		return 0;
	}
	if (!nodeIsRecentEnough()) {
		print(
			`The demo needs Node ${MIN_NODE.join(".")} or newer (this is ${process.version}): run \`npm run demo\`.`,
		);
		return 2;
	}
	const missing = missingPrerequisites();
	if (missing.length > 0) {
		for (const line of missing) print(line);
		return 2;
	}
	const timeoutSeconds = Number(values.timeout);
	if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
		print(`--timeout ${values.timeout}: give a number of seconds`);
		return 2;
	}
	// Both ends: with its output piped (`npm run demo | tee log`) pi would run without its UI and nobody could answer.
	if (!values.auto && (!process.stdin.isTTY || !process.stdout.isTTY)) {
		const which = process.stdin.isTTY
			? "its output goes to a pipe or a file here"
			: "its input is not a terminal";
		print(
			`The interactive demo needs a terminal (${which}). Use \`npm run demo -- --auto\` to watch it play itself; that one can be piped.`,
		);
		return 2;
	}

	const world = await createDemoWorld(values.keep);
	for (const line of banner(world, values.auto)) print(line);

	if (!values.auto) {
		if (!(await waitForEnter())) {
			if (values.keep === undefined)
				await rm(world.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
			print("\nCancelled: pi was not started.");
			return 130;
		}
		const code = await runInteractive(world);
		printSummary(world, print);
		return code === 0 ? 0 : 1;
	}

	print(`you> ${DEMO_PROMPT}`);
	const run = await playAuto(world, { timeoutMs: timeoutSeconds * 1000, print });
	const facts = printSummary(world, print);
	const problems = [
		...run.problems,
		...facts.filter((f) => !f.asScripted).map((f) => `${f.file}: ${f.text}`),
	];
	print("");
	if (problems.length === 0) {
		print(
			`DEMO OK: ${run.dialogs.length} dialogs answered; ${FILES.notes} written, ${FILES.oldLog} removed by the subagent, ${FILES.importantDir}/ kept (\`${COMMANDS.rootRemove}\` denied).`,
		);
		return 0;
	}
	print("DEMO FAILED:");
	for (const problem of problems) print(`  - ${problem}`);
	return 1;
}

process.exitCode = await main().catch((error: unknown) => {
	print(`demo: ${error instanceof Error ? error.message : String(error)}`);
	return 2;
});
