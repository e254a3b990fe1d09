import { z } from "zod";
import type { FileView } from "./file-view.ts";

/** A `packages` entry: a source string, or an object that may filter the package's resources. */
export interface SettingsPackage {
	readonly source: string;
	/** The entry filters the package's extensions or turns autoloading off: it may not load the gate. */
	readonly filtered: boolean;
}

/** Per-agent settings of pi-subagents (`subagents.agentOverrides.<agent>`), the fields that pick extensions. */
export interface AgentOverride {
	readonly extensions?: readonly string[] | false;
	readonly subagentOnlyExtensions?: readonly string[] | false;
	readonly tools?: readonly string[] | false | "inherit";
}

export interface NamedOverride {
	readonly agent: string;
	readonly override: AgentOverride;
	/** The JSON path in the settings file, for the fix text. */
	readonly jsonPath: string;
}

/** pi-subagents' `subagents` settings object, the parts that decide which extensions children load. */
export interface SubagentsSettings {
	readonly defaultExtensions: readonly string[] | undefined;
	/** `agentOverrides` and every `agentOverridesByProvider.<provider>` (any provider may be the one in use). */
	readonly overrides: readonly NamedOverride[];
}

export type SettingsState = "missing" | "loaded" | "invalid";

/** One pi settings file (the agent dir's or a project's `.pi/settings.json`). */
export interface PiSettings {
	readonly file: string;
	/** `invalid`: unreadable, not JSON, or a field pi or pi-subagents would reject — what loads cannot be told. */
	readonly state: SettingsState;
	readonly packages: readonly SettingsPackage[];
	readonly extensions: readonly string[];
	readonly subagents: SubagentsSettings;
}

const nonEmptyStrings = z.array(z.string().trim().min(1));
const stringsOrFalse = z.union([nonEmptyStrings, z.literal(false)]);
const overrideSchema = z.looseObject({
	extensions: stringsOrFalse.optional(),
	subagentOnlyExtensions: stringsOrFalse.optional(),
	tools: z.union([nonEmptyStrings, z.literal(false), z.literal("inherit")]).optional(),
});
const overridesSchema = z.record(z.string(), overrideSchema);
const packageSchema = z.union([
	z.string(),
	z.looseObject({ source: z.string(), extensions: z.unknown().optional(), autoload: z.unknown().optional() }),
]);
const settingsSchema = z.looseObject({
	packages: z.array(packageSchema).optional(),
	extensions: z.array(z.string()).optional(),
	subagents: z
		.looseObject({
			defaultExtensions: nonEmptyStrings.optional(),
			agentOverrides: overridesSchema.optional(),
			agentOverridesByProvider: z.record(z.string(), overridesSchema).optional(),
		})
		.optional(),
});

const NO_SUBAGENTS: SubagentsSettings = { defaultExtensions: undefined, overrides: [] };

export function readPiSettings(file: string, files: FileView): PiSettings {
	const empty = { file, packages: [], extensions: [], subagents: NO_SUBAGENTS };
	if (files.kind(file) === null) return { ...empty, state: "missing" };
	const text = files.readText(file);
	if (text === null) return { ...empty, state: "invalid" };
	let raw: unknown;
	try {
		raw = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch {
		return { ...empty, state: "invalid" };
	}
	const parsed = settingsSchema.safeParse(raw);
	if (!parsed.success) return { ...empty, state: "invalid" };
	const { packages = [], extensions = [], subagents } = parsed.data;
	return {
		file,
		state: "loaded",
		packages: packages.map((entry) =>
			typeof entry === "string"
				? { source: entry, filtered: false }
				: { source: entry.source, filtered: entry.extensions !== undefined || entry.autoload === false },
		),
		extensions,
		subagents: subagents
			? {
					defaultExtensions: subagents.defaultExtensions,
					overrides: [
						...named(subagents.agentOverrides ?? {}, "subagents.agentOverrides"),
						...Object.entries(subagents.agentOverridesByProvider ?? {}).flatMap(([provider, byAgent]) =>
							named(byAgent, `subagents.agentOverridesByProvider.${provider}`),
						),
					],
				}
			: NO_SUBAGENTS,
	};
}

function named(overrides: Record<string, z.infer<typeof overrideSchema>>, prefix: string): NamedOverride[] {
	return Object.entries(overrides).map(([agent, value]) => ({
		agent,
		jsonPath: `${prefix}.${agent}`,
		override: {
			...(value.extensions !== undefined ? { extensions: value.extensions } : {}),
			...(value.subagentOnlyExtensions !== undefined
				? { subagentOnlyExtensions: value.subagentOnlyExtensions }
				: {}),
			...(value.tools !== undefined ? { tools: value.tools } : {}),
		},
	}));
}
