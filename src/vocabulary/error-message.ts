/**
 * What a thrown value says, for a message to a person: `catch` hands over `unknown`, not always an Error, and an
 * Error's `message` can be anything a library put there.
 */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? String(error.message) : String(error);
}
