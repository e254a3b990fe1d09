import type { FileView } from "../../launchers/file-view.ts";

export interface DoctorInput {
	readonly agentDir: string;
	/** The directory children would run in: `--project`, else the working directory. */
	readonly projectDir: string;
	readonly homeDir: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The package directory this command runs from. */
	readonly ownRoot: string;
	readonly view: FileView;
}
