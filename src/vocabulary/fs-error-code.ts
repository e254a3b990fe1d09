/** The `code` of a Node system error (an fs call's `ENOENT` or `EACCES`, a signal's `EPERM`, …), if it has one. */
export function fsErrorCode(error: unknown): string | undefined {
	if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
	return typeof error.code === "string" ? error.code : undefined;
}
