/** The command line itself: help, version, usage errors, the JSON envelope of every command, the bin file. */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../harness/paths.ts";
import {
	assertCliBuilt,
	CLI_BIN,
	cleanupCliSandboxes,
	cliSandbox,
	envelopeOf,
	runCli,
	runCliJson,
} from "./cli-support.ts";

beforeAll(assertCliBuilt);
afterEach(cleanupCliSandboxes);

const COMMANDS = [
	"sessions",
	"explain",
	"pending",
	"approve",
	"deny",
	"policy init",
	"agent allow",
	"agent deny",
	"validate",
];

const packageVersion: string = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;

describe("help and version", () => {
	it("--version prints the package version", async () => {
		const run = await runCli(null, ["--version"]);
		expect(run).toMatchObject({ code: 0, stdout: `pi-permission-hub ${packageVersion}\n`, stderr: "" });
		const json = await runCliJson(null, ["--version"]);
		expect(json).toMatchObject({ code: 0, json: { command: "version", ok: true, version: packageVersion } });
	});

	it("no arguments or --help lists every command and the exit codes", async () => {
		for (const args of [[], ["--help"], ["-h"], ["help"]]) {
			const run = await runCli(null, args);
			expect(run.code).toBe(0);
			for (const command of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  ${command} +\\S`, "m"));
			expect(run.stdout).toContain("Exit codes: 0 done; 1 usage error");
		}
	});

	it("every command has its own help, the same through --help and help", async () => {
		for (const command of COMMANDS) {
			const words = command.split(" ");
			const viaFlag = await runCli(null, [...words, "--help"]);
			expect(viaFlag.code).toBe(0);
			expect(viaFlag.stdout).toContain(`Usage: pi-permission-hub ${command}`);
			expect(viaFlag.stdout).toContain("--format text|json");
			const viaHelp = await runCli(null, ["help", ...words]);
			expect(viaHelp.stdout).toBe(viaFlag.stdout);
		}
	});
});

describe("usage errors exit 1, in the format asked for", () => {
	it("unknown commands, subcommands and options, missing and extra arguments, bad formats", async () => {
		const cases: readonly (readonly [readonly string[], string])[] = [
			[["frobnicate"], 'unknown command "frobnicate"'],
			[["policy"], "policy needs a subcommand: init"],
			[["agent", "frob"], 'agent has no subcommand "frob": allow, deny'],
			[["sessions", "--bogus"], "Unknown option '--bogus'"],
			[["explain"], "missing the query"],
			[["pending", "extra"], 'unexpected argument "extra"'],
			[["approve"], "missing the request id"],
			[["sessions", "--log"], "Option '--log"],
			[["sessions", "--agent-dir", ""], "--agent-dir must not be empty"],
			[["sessions", "--version"], "--version is not an option of a command"],
		];
		for (const [args, message] of cases) {
			const text = await runCli(null, args);
			expect(text.code, args.join(" ")).toBe(1);
			expect(text.stdout).toBe("");
			expect(text.stderr).toContain(message);
			const { code, json } = await runCliJson(null, args);
			expect(code).toBe(1);
			expect(json).toMatchObject({
				ok: false,
				error: { kind: "usage", message: expect.stringContaining(message) },
			});
		}
		const badFormat = await runCli(null, ["sessions", "--format", "yaml"]);
		expect(badFormat.code).toBe(1);
		expect(badFormat.stderr).toContain('--format must be "text" or "json" (got "yaml")');
	});
});

describe("the JSON envelope", () => {
	it("every command prints one document with schema_version 1, its name, ok and the documented exit code", async () => {
		const sb = await cliSandbox();
		const id = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
		const cases: readonly (readonly [readonly string[], string, number])[] = [
			[["sessions"], "sessions", 0],
			[["explain", "anything"], "explain", 1],
			[["pending"], "pending", 0],
			[["approve", id], "approve", 1],
			[["deny", id, "--reason", "no"], "deny", 1],
			[["policy", "init", "--out", "-"], "policy init", 0],
			[["agent", "allow", "--kind", "human"], "agent allow", 0],
			[["agent", "deny", "--kind", "ci", "--name", "gitlab-ci"], "agent deny", 0],
			[["validate"], "validate", 0],
			[["validate", "nowhere.json"], "validate", 2],
			[["--version"], "version", 0],
			[["--help"], "help", 0],
			[["explain", "--help"], "help", 0],
		];
		for (const [args, command, exitCode] of cases) {
			const run = await runCli(sb, [...args, "--format", "json"]);
			expect(run.code, args.join(" ")).toBe(exitCode);
			const json = envelopeOf(run);
			expect(json.command).toBe(command);
			expect(json.ok).toBe(exitCode === 0);
			expect(Object.keys(json).slice(0, 3)).toEqual(["schema_version", "command", "ok"]);
			// `--format=json` is the same option.
			const equals = await runCli(sb, [...args, "--format=json"]);
			expect(JSON.parse(equals.stdout).command).toBe(command);
		}
	});
});

describe("bin/pi-permission-hub.mjs", () => {
	it("says to run `npm run build` when dist/ is missing", async () => {
		const sb = await cliSandbox();
		const bin = path.join(sb.root, "package", "bin", "pi-permission-hub.mjs");
		mkdirSync(path.dirname(bin), { recursive: true });
		copyFileSync(CLI_BIN, bin);
		const run = await runCli(sb, ["sessions"], { bin });
		expect(run.code).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain(path.join(sb.root, "package", "dist", "cli", "main.js"));
		expect(run.stderr).toContain("Run `npm run build`");
	});
});
