import type { ConfigScope } from "./config-schema.ts";
import type { InvalidConfig, ParsedConfig } from "./parse-config-text.ts";

export interface MissingConfig {
	readonly status: "missing";
	readonly file: string;
	readonly scope: ConfigScope;
}

/** A project file that exists or not, but is not read because pi does not trust the project. */
export interface UntrustedConfig {
	readonly status: "not-trusted";
	readonly file: string;
	readonly scope: "project";
}

export type ConfigFileState = ParsedConfig | InvalidConfig | MissingConfig | UntrustedConfig;
