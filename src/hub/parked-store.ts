import { readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ParkedApproval, ParkedApprovals } from "../gate/parked-approvals.ts";

const ANSWER_SUFFIX = ".answer.json";
const MAX_ANSWER_BYTES = 16 * 1024;

const answerSchema = z.object({
	requestId: z.string().regex(/^[0-9A-Za-z]{8,64}$/),
	actionHash: z.string().regex(/^[0-9a-f]{64}$/),
	decision: z.enum(["allow", "deny"]),
	via: z.enum(["dialog", "cli"]),
	answeredAt: z.string().max(64),
	reason: z.string().max(2000).optional(),
});

/**
 * Parked requests and the answers given to them later, under the agent dir so every session of the user
 * sees them. An approval is used up by the first identical action that runs: consuming is an unlink, which
 * exactly one process can win.
 */
export class ParkedStore implements ParkedApprovals {
	readonly dir: string;
	private cache: { mtimeMs: number; approvals: ParkedApproval[] } | null = null;

	constructor(dir: string) {
		this.dir = dir;
	}

	find(actionHash: string): ParkedApproval | null {
		return this.approvals().find((a) => a.actionHash === actionHash) ?? null;
	}

	consume(approval: ParkedApproval): boolean {
		try {
			unlinkSync(join(this.dir, `${approval.requestId}${ANSWER_SUFFIX}`));
		} catch {
			return false;
		} finally {
			this.cache = null;
		}
		return true;
	}

	private approvals(): ParkedApproval[] {
		let mtimeMs: number;
		try {
			mtimeMs = statSync(this.dir).mtimeMs;
		} catch {
			return [];
		}
		if (this.cache?.mtimeMs === mtimeMs) return this.cache.approvals;
		const approvals: ParkedApproval[] = [];
		for (const name of safeList(this.dir)) {
			if (!name.endsWith(ANSWER_SUFFIX)) continue;
			const answer = readAnswer(join(this.dir, name));
			if (answer?.decision === "allow" && `${answer.requestId}${ANSWER_SUFFIX}` === name) {
				approvals.push({
					requestId: answer.requestId,
					actionHash: answer.actionHash,
					approvedVia: answer.via,
				});
			}
		}
		this.cache = { mtimeMs, approvals };
		return approvals;
	}
}

function safeList(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

function readAnswer(file: string): z.infer<typeof answerSchema> | null {
	try {
		if (statSync(file).size > MAX_ANSWER_BYTES) return null;
		const parsed = answerSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
