/**
 * The rules a human saved from a dialog ("Always allow" / "Always deny"), written into their user config
 * (adr/0018), and what happened said to them and to the hub log. Never rejects: a file that cannot be written
 * is reported, and the answer stands for this session only.
 */
import type { RulesToSave } from "../authority/terminal-authorizer.ts";
import type { HubLog } from "../hub/hub-log.ts";
import { userConfigPath } from "../policy/config-paths.ts";
import { addRules, everywherePattern, rulesToSave } from "../policy/saved-rules.ts";
import { errorMessage } from "../vocabulary/error-message.ts";

export interface RuleSaving {
	readonly agentDir: string;
	readonly notify: (message: string, level: "info" | "warning") => void;
	readonly log: Pick<HubLog, "write">;
}

/** Save `save` for calls in `directory` (a project rule holds there; an everywhere rule for any directory). */
export async function saveRules(save: RulesToSave, directory: string, saving: RuleSaving): Promise<void> {
	const file = userConfigPath(saving.agentDir);
	const rules = rulesToSave({
		verdict: save.verdict,
		directory: save.where === "project" ? directory : null,
		patterns:
			save.where === "project"
				? save.suggestions
				: save.suggestions.map((approved) => everywherePattern(approved, directory)),
		savedAt: new Date().toISOString(),
	});
	const what = rules.map((r) => `${r.action} ${r.surface} "${r.pattern}"`).join(", ");
	const where = save.where === "project" ? `in ${directory}` : "everywhere";
	try {
		await addRules(file, rules);
		saving.notify(`pi-permission-hub: saved ${what} ${where} (${file})`, "info");
		saving.log.write("rules.saved", { file, rules });
	} catch (error) {
		const message = `pi-permission-hub: could not save ${what}: ${errorMessage(error)}; it holds for this session only`;
		saving.notify(message, "warning");
		saving.log.write("rules.save_failed", { file, message });
	}
}
