/** Node module resolution hooks for module-trace.ts: one JSON line per resolved import. */
import { appendFileSync } from "node:fs";

let file: string | undefined;

export function initialize(data: unknown): void {
	const value: unknown = typeof data === "object" && data !== null ? Reflect.get(data, "file") : undefined;
	file = typeof value === "string" ? value : undefined;
}

interface ResolveContext {
	readonly parentURL?: string;
}

interface ResolveResult {
	readonly url: string;
}

export async function resolve(
	specifier: string,
	context: ResolveContext,
	next: (specifier: string, context: ResolveContext) => Promise<ResolveResult>,
): Promise<ResolveResult> {
	const result = await next(specifier, context);
	if (file !== undefined) {
		appendFileSync(file, `${JSON.stringify({ url: result.url, parent: context.parentURL ?? null })}\n`);
	}
	return result;
}
