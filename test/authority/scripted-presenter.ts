/** Presenters for terminal-authorizer tests: real DialogPresenters driven by a script instead of a person. */
import type { AskPrompt } from "../../src/authority/ask-prompt.ts";
import {
	type DialogOptions,
	type DialogPresenter,
	type DialogResult,
	dialogDeadline,
} from "../../src/authority/dialog-presenter.ts";

/**
 * A real DialogPresenter (the seam between the authorizer and a UI) that answers from a script and records
 * what it was shown. An entry may be a function, to answer only when the test says so.
 */
export class ScriptedPresenter implements DialogPresenter {
	readonly shown: { prompt: AskPrompt; options: DialogOptions }[] = [];
	private readonly script: ((options: DialogOptions) => Promise<DialogResult>)[];

	constructor(...script: (DialogResult | ((options: DialogOptions) => Promise<DialogResult>))[]) {
		this.script = script.map((step) => (typeof step === "function" ? step : async () => step));
	}

	present(prompt: AskPrompt, options: DialogOptions): Promise<DialogResult> {
		this.shown.push({ prompt, options });
		const next = this.script.shift();
		if (!next) throw new Error("the presenter was shown more dialogs than the test scripted");
		return next(options);
	}
}

/** Waits for the dialog's own deadline, the way a real presenter does when nobody presses a key. */
export const waitForDeadline = (options: DialogOptions): Promise<DialogResult> =>
	new Promise((resolve) => {
		const deadline = dialogDeadline(options);
		deadline.signal.addEventListener("abort", () => {
			const ended = deadline.ended();
			deadline.dispose();
			resolve({ kind: ended ?? "withdrawn" });
		});
	});
