import type { UserSurface } from "../provenance/decision-source.ts";

/** An approval a human gave later for a parked request: it lets exactly one identical action through. */
export interface ParkedApproval {
	readonly requestId: string;
	readonly actionHash: string;
	readonly approvedVia: UserSurface;
}

/** Lookup of approvals for parked requests, by action hash. */
export interface ParkedApprovals {
	find(actionHash: string): ParkedApproval | null;
	/** Use the approval up (once): returns false when another session consumed it first. */
	consume(approval: ParkedApproval): boolean;
}
