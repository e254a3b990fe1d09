import { z } from "zod";
import { errorMessage } from "../cli-error.ts";
import type { FileView } from "./file-view.ts";

const nonEmptyStrings = z.array(z.string().refine((s) => s.trim() !== "", "must not be empty"));

/** `packages` entries as pi writes them: a source string, or an object with a source and resource filters. */
const packageEntrySchema = z.union([
	z.string(),
	z.looseObject({
		source: z.string(),
		extensions: z.array(z.string()).optional(),
		autoload: z.boolean().optional(),
	}),
]);

const agentOverrideSchema = z.looseObject({
	extensions: z.union([nonEmptyStrings, z.literal(false)]).optional(),
	subagentOnlyExtensions: z.union([nonEmptyStrings, z.literal(false)]).optional(),
});
const agentOverridesSchema = z.record(z.string(), agentOverrideSchema);

/**
 * Only the keys the doctor reads, typed as pi and pi-subagents accept them; every other key passes through
 * untouched. A key of the wrong type makes the file invalid: pi-subagents refuses such a file, and the doctor
 * never rewrites a file it could not make sense of.
 */
const settingsSchema = z.looseObject({
	packages: z.array(packageEntrySchema).optional(),
	extensions: z.array(z.string()).optional(),
	subagents: z
		.looseObject({
			defaultExtensions: nonEmptyStrings.optional(),
			agentOverrides: agentOverridesSchema.optional(),
			agentOverridesByProvider: z.record(z.string(), agentOverridesSchema).optional(),
		})
		.optional(),
});

export type PackageEntry = z.infer<typeof packageEntrySchema>;
export type AgentOverride = z.infer<typeof agentOverrideSchema>;
export type SettingsKeys = z.infer<typeof settingsSchema>;

export type SettingsFile =
	| { readonly status: "absent"; readonly file: string }
	| {
			readonly status: "read";
			readonly file: string;
			/** Exactly what was read: a fix is applied only while the file still holds this text. */
			readonly text: string;
			readonly settings: SettingsKeys;
	  }
	| { readonly status: "unusable"; readonly file: string; readonly problem: string };

export type ReadSettings = Extract<SettingsFile, { status: "read" }>;

/** A settings.json (plain JSON, as pi reads it: a leading byte-order mark is ignored). */
export function readSettingsFile(file: string, view: FileView): SettingsFile {
	let text: string | null;
	try {
		text = view.readText(file);
	} catch (error) {
		return { status: "unusable", file, problem: `cannot be read: ${errorMessage(error)}` };
	}
	if (text === null) return { status: "absent", file };
	let value: unknown;
	try {
		value = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		return { status: "unusable", file, problem: `is not valid JSON: ${errorMessage(error)}` };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		return { status: "unusable", file, problem: "is not a JSON object" };
	}
	const parsed = settingsSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const where = issue?.path.map(String).join(".") ?? "";
		return {
			status: "unusable",
			file,
			problem: `has an invalid "${where}": ${issue?.message ?? "unexpected value"}`,
		};
	}
	return { status: "read", file, text, settings: parsed.data };
}

/** The source string of a `packages` entry. */
export function packageSource(entry: PackageEntry): string {
	return typeof entry === "string" ? entry : entry.source;
}

/**
 * Whether a `packages` entry loads the package's extensions: an object entry with `"extensions": []`, or with
 * `"autoload": false` and no extension patterns, keeps the package but loads none of them.
 */
export function packageLoadsExtensions(entry: PackageEntry): boolean {
	if (typeof entry === "string") return true;
	return entry.extensions === undefined ? entry.autoload !== false : entry.extensions.length > 0;
}

/** Every `subagents.agentOverrides` entry and every provider's, with the JSON path of each. */
export function agentOverridesOf(
	settings: SettingsKeys,
): { readonly agent: string; readonly key: string; readonly override: AgentOverride }[] {
	const named = (overrides: Record<string, AgentOverride>, prefix: string) =>
		Object.entries(overrides).map(([agent, override]) => ({ agent, key: `${prefix}.${agent}`, override }));
	return [
		...named(settings.subagents?.agentOverrides ?? {}, "subagents.agentOverrides"),
		...Object.entries(settings.subagents?.agentOverridesByProvider ?? {}).flatMap(([provider, overrides]) =>
			named(overrides, `subagents.agentOverridesByProvider.${provider}`),
		),
	];
}
