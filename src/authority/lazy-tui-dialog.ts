import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { DialogPresenter } from "./dialog-result.ts";
import type { LoadTui } from "./tui-dialog.ts";

/** The TUI dialog and pi-tui load only when a dialog is actually shown in the TUI. */
export function lazyTuiDialog(ui: ExtensionUIContext, loadTui: LoadTui): DialogPresenter {
	return {
		async present(prompt, options) {
			const [{ tuiDialog }, kit] = await Promise.all([import("./tui-dialog.ts"), loadTui()]);
			return tuiDialog(ui, kit).present(prompt, options);
		},
	};
}
