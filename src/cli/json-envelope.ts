import type { FailureKind } from "./cli-error.ts";

/** Bumped only when a field changes meaning or disappears; new fields keep the number. */
export const JSON_SCHEMA_VERSION = 1;

/** `--format json` prints exactly one document: this envelope, with the command's own fields after `ok`. */
export function jsonEnvelope(
	command: string,
	data: Readonly<Record<string, unknown>>,
	failure: { readonly kind: FailureKind; readonly message: string } | undefined,
): string {
	const envelope = {
		schema_version: JSON_SCHEMA_VERSION,
		command,
		ok: failure === undefined,
		...(failure ? { error: { kind: failure.kind, message: failure.message } } : {}),
		...data,
	};
	return `${JSON.stringify(envelope, null, 2)}\n`;
}
