import { execFileSync } from "node:child_process";
import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../harness/paths.ts";

const work = mkdtempSync(path.join(tmpdir(), "pph-packed-"));
afterAll(() => rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));

/** A consumer extension written only against the published API (what a link author would write). */
const CONSUMER = `
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import {
	API_VERSION,
	ASK_CLOSED_CHANNEL,
	type AskEvent,
	type AskOutcome,
	type AuthorizerRequest,
	type DecisionEvent,
	type DecisionSource,
	type LinkVerdict,
	onAsk,
	onDecision,
	queryDecision,
	registerAuthorizer,
	registeredAuthorizerNames,
	REGISTER_AUTHORIZER_CHANNEL,
	type Tier,
	unregisterAuthorizer,
} from "pi-permission-hub";

const version: 1 = API_VERSION;
const tiers: Tier[] = ["read", "privileged"];

function describeSource(source: DecisionSource): string {
	return source.kind === "forwarded" ? \`via \${source.responderSessionId}\` : source.kind;
}

function decide(request: AuthorizerRequest): LinkVerdict {
	const commands = request.parts.flatMap((p) => (p.command ? [p.command.text] : []));
	if (request.tier === "read") return { verdict: "allow" };
	return commands.some((c) => c.startsWith("rm ")) ? { verdict: "deny", reason: "no rm" } : { verdict: "defer" };
}

export default function consumer(pi: ExtensionAPI): void {
	const unregister: () => void = registerAuthorizer("consumer", decide);
	const names: string[] = registeredAuthorizerNames();
	const stop = onDecision((event: DecisionEvent) => {
		const text: string = \`\${event.tool} \${event.outcome} \${describeSource(event.source)}\`;
		void text;
	});
	const stopAsks = onAsk((event: AskEvent) => {
		const waiting: string =
			event.phase === "opened" ? \`\${event.position.index} of \${event.position.total} until \${event.deadline}\` : "";
		const outcome: AskOutcome | null = event.phase === "closed" ? event.outcome : null;
		void [waiting, outcome];
	});
	pi.events.on(ASK_CLOSED_CHANNEL, (data: unknown) => void data);
	pi.events.emit(REGISTER_AUTHORIZER_CHANNEL, { name: "consumer-bus", authorize: decide });
	void queryDecision({ tool: "bash", input: { command: "ls" } }).then((r) => r.mode satisfies "auto" | "ask" | "deny");
	void [version, tiers, names, unregister, stop, stopAsks, unregisterAuthorizer];
}
`;

/** The TypeScript code blocks of a markdown file of this repository. */
function tsBlocks(file: string): string[] {
	const markdown = readFileSync(path.join(REPO_ROOT, file), "utf8");
	return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
}

describe("the packed package's types", () => {
	it("a consumer extension, and the examples in README.md and docs/api.md, compile against the tarball npm pack produces", () => {
		const packDir = path.join(work, "pack");
		mkdirSync(packDir);
		execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", packDir], {
			cwd: REPO_ROOT,
			stdio: "pipe",
		});
		const [tarball] = readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
		expect(tarball).toBeDefined();
		const consumer = path.join(work, "consumer");
		const installed = path.join(consumer, "node_modules", "pi-permission-hub");
		mkdirSync(installed, { recursive: true });
		execFileSync("tar", ["-xzf", path.join(packDir, tarball ?? ""), "-C", installed, "--strip-components=1"]);
		// The host packages are peers: the consumer gets pi's own copies, as in a real install.
		symlinkSync(
			path.join(REPO_ROOT, "node_modules", "@earendil-works"),
			path.join(consumer, "node_modules", "@earendil-works"),
		);
		// Its own dependencies, as npm would install them next to it.
		mkdirSync(path.join(installed, "node_modules"));
		const manifest: unknown = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
		for (const dependency of Object.keys(Object(Reflect.get(Object(manifest), "dependencies")))) {
			symlinkSync(
				path.join(REPO_ROOT, "node_modules", dependency),
				path.join(installed, "node_modules", dependency),
			);
		}
		writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module" }));
		writeFileSync(path.join(consumer, "index.ts"), CONSUMER);
		// The examples the README and docs/api.md show must compile against the package as published, too.
		const examples = [...tsBlocks("README.md"), ...tsBlocks(path.join("docs", "api.md"))];
		expect(examples.length).toBeGreaterThanOrEqual(2);
		examples.forEach((text, index) => {
			writeFileSync(path.join(consumer, `example-${index}.ts`), text);
		});
		symlinkSync(
			path.join(REPO_ROOT, "node_modules", "@types"),
			path.join(consumer, "node_modules", "@types"),
		);
		writeFileSync(
			path.join(consumer, "tsconfig.json"),
			JSON.stringify({
				compilerOptions: {
					target: "ES2023",
					module: "NodeNext",
					moduleResolution: "NodeNext",
					strict: true,
					noEmit: true,
					skipLibCheck: true,
					types: ["node"],
				},
				files: ["index.ts", ...examples.map((_, index) => `example-${index}.ts`)],
			}),
		);
		const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
		const output = (() => {
			try {
				execFileSync(process.execPath, [tsc, "-p", consumer], { stdio: "pipe" });
				return "";
			} catch (error) {
				return String(Reflect.get(Object(error), "stdout") ?? error);
			}
		})();
		expect(output).toBe("");
	}, 120_000);
});
