/** What a thrown value says, for a message to a person: `catch` hands over `unknown`, not always an Error. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
