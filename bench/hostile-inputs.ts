/**
 * Figure 9: inputs built to make the code around the parser slow — long runs that make a backtracking matcher
 * quadratic or worse, a 200 000-frame decision chain, a FIFO planted in an inbox. Each is timed once, cold, the
 * way it would arrive; the tests check what each call answers, this figure how long it took.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { matchesCommandPattern } from "../src/classify/bash/command-tier-lookup.ts";
import { redactSecrets } from "../src/classify/preview.ts";
import { readInboxFile } from "../src/hub/private-files.ts";
import { readDecisionSource } from "../src/provenance/decision-source.ts";
import { compileWildcard } from "../src/vocabulary/wildcard-pattern.ts";
import type { FigureResult, Measurement } from "./report.ts";

interface HostileInput {
	readonly label: string;
	readonly targetMs: number;
	/** Builds the input (not timed) and returns the call to time. */
	readonly prepare: () => () => unknown;
}

function decisionChain(depth: number): unknown {
	const frame = '{"kind":"forwarded","responderSessionId":"p","decision":';
	return JSON.parse(`${frame.repeat(depth)}null${"}".repeat(depth)}`);
}

function hostileInputs(scratch: string): readonly HostileInput[] {
	return [
		{
			label: "wildcard rule *a*a*a*a*a*a*a*a*c vs 200 001 chars",
			targetMs: 1000,
			prepare: () => {
				const text = `${"a".repeat(200_000)}b`;
				return () => compileWildcard("*a*a*a*a*a*a*a*a*c").test(text);
			},
		},
		{
			label: "command tier pattern *a*a*a*a*a*b vs 200 000 chars",
			targetMs: 2000,
			prepare: () => {
				const text = "a".repeat(200_000);
				return () => matchesCommandPattern("*a*a*a*a*a*b", text);
			},
		},
		{
			label: "secret redaction of 300 KiB of word characters",
			targetMs: 1000,
			prepare: () => {
				const text = `x${"a".repeat(200_000)}=y http${"s".repeat(100_000)}`;
				return () => redactSecrets(text);
			},
		},
		{
			label: "DecisionSource read of a 200 000-frame chain",
			targetMs: 1000,
			prepare: () => {
				const chain = decisionChain(200_000);
				return () => readDecisionSource(chain);
			},
		},
		{
			label: "inbox read of a FIFO (refused, not waited on)",
			targetMs: 1000,
			prepare: () => {
				const fifo = join(scratch, "fifo.json");
				execFileSync("mkfifo", [fifo]);
				return () => readInboxFile(fifo, 100);
			},
		},
	];
}

function summary(result: unknown): string {
	const text = typeof result === "string" ? `${result.length} chars` : JSON.stringify(result);
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export async function hostileInputsFigure(): Promise<FigureResult> {
	const scratch = mkdtempSync(join(tmpdir(), "pph-bench-hostile-"));
	try {
		const measurements: Measurement[] = [];
		const notes: string[] = [];
		for (const input of hostileInputs(scratch)) {
			const call = input.prepare();
			const started = performance.now();
			const result = call();
			const ms = performance.now() - started;
			measurements.push({
				label: input.label,
				value: ms,
				unit: "ms",
				target: { op: "<=", value: input.targetMs },
			});
			notes.push(`${input.label} → ${summary(result)}`);
		}
		return {
			figure: "9. Hostile inputs outside the parser: matchers, redaction, readers (one cold call each)",
			measurements,
			notes,
		};
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
}
