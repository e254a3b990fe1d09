/**
 * Why the parked store refused to record an answer (adr/0006): no such request (used up or swept meanwhile), it
 * expired, it was already answered, or the answer is too large to be read back. The answer then counts for
 * nothing, and the audit line of the session that gave it says so.
 */
export const PARKED_ANSWER_REFUSALS = ["unknown", "expired", "answered", "too_large"] as const;
export type ParkedAnswerRefusal = (typeof PARKED_ANSWER_REFUSALS)[number];
