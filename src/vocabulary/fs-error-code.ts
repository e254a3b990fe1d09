/** The `code` of a Node fs error (`ENOENT`, `EACCES`, …), if it has one. */
export function fsErrorCode(error: unknown): string | undefined {
	if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
	return typeof error.code === "string" ? error.code : undefined;
}
