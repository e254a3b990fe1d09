import type { ExtensionUIContext } from "@earendil-works/pi-coding-agent";
import type { DialogPresenter } from "./dialog-result.ts";
import type { TuiKit } from "./tui-dialog.ts";

/** The TUI dialog's code loads only when a dialog is actually shown in the TUI. */
export function lazyTuiDialog(ui: ExtensionUIContext, kit: TuiKit): DialogPresenter {
	return {
		async present(prompt, options) {
			const { tuiDialog } = await import("./tui-dialog.ts");
			return tuiDialog(ui, kit).present(prompt, options);
		},
	};
}
