import { z } from "zod";
import { lazySchema } from "../vocabulary/lazy-schema.ts";

/** Set by a serving session in its own process environment, so every process it spawns can find it. */
export const PARENT_ENV = "PI_PERMISSION_HUB_PARENT";

const parentLinkSchema = lazySchema(() =>
	z.object({
		v: z.literal(1),
		sessionId: z.string().min(1).max(256),
		/** The parent's inbox directory (absolute). */
		inbox: z.string().min(1).max(4096),
		pid: z.number().int().positive(),
		/** Agent labels from the root down to the parent itself. */
		path: z.array(z.string().max(256)).min(1).max(32),
	}),
);

export type ParentLink = z.infer<ReturnType<typeof parentLinkSchema>>;

export function serializeParentLink(link: ParentLink): string {
	return JSON.stringify(link);
}

/** Null for anything that is not a well-formed link (it is caller-controlled input like any variable). */
export function parseParentLink(value: string | undefined): ParentLink | null {
	if (!value || value.length > 16_384) return null;
	try {
		const parsed = parentLinkSchema().safeParse(JSON.parse(value));
		return parsed.success ? parsed.data : null;
	} catch {
		return null;
	}
}
