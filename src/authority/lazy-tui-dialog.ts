import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { DialogPresenter } from "./dialog-result.ts";

/** The TUI dialog module pulls in pi-tui; load it only when a dialog is actually shown in the TUI. */
export function lazyTuiDialog(ui: ExtensionUIContext): DialogPresenter {
	return {
		async present(prompt, options) {
			const { tuiDialog } = await import("./tui-dialog.ts");
			return tuiDialog(ui).present(prompt, options);
		},
	};
}
