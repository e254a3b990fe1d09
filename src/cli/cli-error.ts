/** Exit codes of the CLI: 0 done, 1 usage / validation / no match / refused, 2 input or output failed. */
export type ExitCode = 0 | 1 | 2;

/** Why a command did not do its job; the kind is stable (JSON `error.kind`), the message is for people. */
export type FailureKind =
	| "usage"
	| "no_match"
	| "unknown_request"
	| "expired"
	| "already_answered"
	| "exists"
	| "invalid"
	/** A config the command needs is invalid: the gate would deny everything, and so the answer is not the policy's. */
	| "config_invalid"
	| "io";

const EXIT_CODES: Readonly<Record<FailureKind, ExitCode>> = {
	usage: 1,
	no_match: 1,
	unknown_request: 1,
	expired: 1,
	already_answered: 1,
	exists: 1,
	invalid: 1,
	config_invalid: 2,
	io: 2,
};

export function exitCodeOf(kind: FailureKind): ExitCode {
	return EXIT_CODES[kind];
}

/** Thrown by a command that cannot go on; the runner turns it into a message (or JSON envelope) and exit code. */
export class CliError extends Error {
	override readonly name = "CliError";
	readonly kind: FailureKind;

	constructor(kind: FailureKind, message: string) {
		super(message);
		this.kind = kind;
	}
}

export function usageError(message: string): CliError {
	return new CliError("usage", message);
}
