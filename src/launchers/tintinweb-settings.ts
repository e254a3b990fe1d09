import { join } from "node:path";
import { lazySchema } from "../vocabulary/lazy-schema.ts";
import * as z from "../vocabulary/zod.ts";
import type { FileView } from "./file-view.ts";

/**
 * The one key of @tintinweb/pi-subagents' own settings (`subagents.json`) that changes which agent a call runs.
 * It drops a value of any other type, and a file that is not a JSON object, as if absent.
 */
const subagentsSettingsSchema = lazySchema(() =>
	z.object({ disableDefaultAgents: z.catch(z.optional(z.boolean()), undefined) }),
);

/**
 * Whether @tintinweb/pi-subagents leaves out its default agents (`general-purpose`, `Explore`, `Plan`):
 * `disableDefaultAgents` of the project's `.pi/subagents.json`, else of the agent dir's. A file it cannot read or
 * parse counts as absent there too. Null when a file is there that cannot be read here as it reads it (too large),
 * so either may hold.
 */
export function tintinwebDefaultsDisabled(agentDir: string, cwd: string, files: FileView): boolean | null {
	let disabled: boolean | null = false;
	for (const file of [join(agentDir, "subagents.json"), join(cwd, ".pi", "subagents.json")]) {
		const read = files.readText(file);
		if (read.state === "unreadable" && read.tooLarge) {
			disabled = null;
			continue;
		}
		if (read.state !== "text") continue;
		const value = disableDefaultAgentsOf(read.text);
		if (value !== undefined) disabled = value;
	}
	return disabled;
}

function disableDefaultAgentsOf(text: string): boolean | undefined {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return undefined;
	}
	const parsed = subagentsSettingsSchema().safeParse(json);
	return parsed.success ? parsed.data.disableDefaultAgents : undefined;
}
